package org.cairn.core.api;

import java.util.List;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.availability.HostState;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A repair job as the executor's reader takes it: each source at its index, in the state the tracker listed it in. */
class RepairJobTest {
  private static final List<String> TAGS = List.of("0000000a", "0000000b", "0000000c", "0000000d", "0000000e");

  @Test
  void located_keepsEachSourcesState_soHoldersListedDownAreAskedLast() {
    RepairJob job = new RepairJob("j", "heat", ChunkId.of(new byte[] {1}).hex(), "code:3+2", 100, List.of(
        new RepairJob.Piece(0, "a", "127.0.0.1:1", "RUNNING"),
        new RepairJob.Piece(1, "b", "127.0.0.1:2", "LOADED"),
        new RepairJob.Piece(2, "c", "127.0.0.1:3", "DOWN"),
        new RepairJob.Piece(3, "d", "127.0.0.1:4")), // a tracker that predates states
        List.of(new RepairJob.Piece(4, "e", "127.0.0.1:5")), TAGS);
    LocatedChunk chunk = job.located();
    assertThat(chunk.pieces()).isEqualTo(5);
    assertThat(chunk.holder(0).state()).isEqualTo(HostState.RUNNING);
    assertThat(chunk.holder(1).state()).isEqualTo(HostState.LOADED);
    assertThat(chunk.holder(2).state()).isEqualTo(HostState.DOWN);
    assertThat(chunk.holder(2).live()).as("a last resort for the reader, not a live holder").isFalse();
    assertThat(chunk.holder(2).tag()).isEqualTo("0000000c");
    assertThat(chunk.holder(3).state()).as("no state: live").isEqualTo(HostState.RUNNING);
    assertThat(chunk.holder(4)).as("the target is no source").isNull();
  }

  @Test
  void located_takesAStateItDoesNotKnowAsRunning() {
    RepairJob job = new RepairJob("j", "heat", ChunkId.of(new byte[] {1}).hex(), "code:3+2", 100,
        List.of(new RepairJob.Piece(0, "a", "127.0.0.1:1", "SOMETHING-NEW")), List.of(), TAGS);
    assertThat(job.located().holder(0).state()).isEqualTo(HostState.RUNNING);
  }
}
