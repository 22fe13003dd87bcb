package org.cairn.tracker.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.junit.jupiter.api.Test;

/** A checkpoint set's version exists only when all its parts are committed; an incomplete set expires. */
class CheckpointSetsTest extends CatalogFixture {
  @Test
  void aSetIsAVersionOnlyWhenItsLastPartCommits() throws IOException {
    assertThat(commitPart("e1", 0, 3, "shared", "rank0")).isZero();
    assertThat(commitPart("e1", 2, 3, "shared", "rank2")).isZero();
    assertThat(catalog.reads().versions("mpi", "job")).isEmpty();
    assertThat(catalog.reads().manifest("mpi", "job", 0, 0)).isNull();
    assertThat(catalog.sets().progress("mpi", "job", "e1")).isEqualTo(new CheckpointSets.Progress("e1", 2, 3));

    long step = commitPart("e1", 1, 3, "shared", "rank1");
    assertThat(step).isEqualTo(1);
    List<VersionRow> rows = catalog.reads().versions("mpi", "job");
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).parts()).isEqualTo(3);
    assertThat(rows.get(0).set()).isEqualTo("e1");
    assertThat(rows.get(0).size()).isEqualTo(3L * 2 * CHUNK);
    for (int p = 0; p < 3; p++) {
      VersionReads.Located part = catalog.reads().manifest("mpi", "job", 0, p);
      assertThat(part.manifest().set().part()).isEqualTo(p);
      assertThat(part.manifest().step()).isEqualTo(1);
      assertThat(part.chunks()).containsKey(id("rank" + p)).containsKey(id("shared"));
    }
    assertThat(catalog.sets().progress("mpi", "job", "e1").committed()).isZero();
    // the chunk all three parts share is referenced once per part
    assertThat(catalog.reads().chunk("mpi", id("shared")).refs()).isEqualTo(3);
    assertThatThrownBy(() -> catalog.reads().manifest("mpi", "job", 1, -1)).hasMessageContaining("checkpoint set of 3 parts");
    assertThatThrownBy(() -> catalog.reads().manifest("mpi", "job", 1, 3)).hasMessageContaining("parts 0..2");
  }

  @Test
  void deletingASetReleasesEveryPartsReferences() throws IOException {
    commitPart("e1", 0, 2, "shared", "a");
    commitPart("e1", 1, 2, "shared", "b");
    assertThat(catalog.delete("mpi", "job", 1)).isTrue();
    assertThat(catalog.reads().chunk("mpi", id("shared"))).isNull();
    assertThat(catalog.reads().chunk("mpi", id("a"))).isNull();
    assertThat(catalog.reads().chunk("mpi", id("b"))).isNull();
  }

  @Test
  void repeatedCommitsAreIdempotentAndConflictingOnesRefused() throws IOException {
    assertThat(commitPart("e1", 0, 2, "x", "y", "s0")).isZero();
    assertThat(commitPart("e1", 0, 2, "x", "y", "s0")).isZero(); // the same store session again
    assertThat(catalog.reads().chunk("mpi", id("x")).refs()).isEqualTo(1);
    assertThatThrownBy(() -> commitPart("e1", 0, 2, "x", "y", "other")).hasMessageContaining("already committed by another store");
    assertThatThrownBy(() -> commitPart("e1", 1, 3, "x", "y", "s1")).hasMessageContaining("has 2 parts");
    assertThat(commitPart("e1", 1, 2, "z", "y", "s1")).isEqualTo(1);
    assertThat(commitPart("e1", 1, 2, "z", "y", "s1")).isEqualTo(1); // an answer lost after the set completed
    assertThatThrownBy(() -> commitPart("e1", 1, 2, "z", "y", "late")).hasMessageContaining("already complete as step 1");
    assertThat(catalog.reads().versions("mpi", "job")).hasSize(1);
  }

  @Test
  void anIncompleteSetExpiresAndReleasesItsChunks_aCompleteOneStays() throws IOException {
    commitPart("old", 0, 2, "o1", "o2");
    commitPart("done", 0, 1, "d1", "o1");
    clock.advance(Duration.ofMinutes(30));
    commitPart("young", 0, 2, "y1", "o1");
    assertThat(catalog.reads().chunk("mpi", id("o1")).refs()).isEqualTo(3);
    clock.advance(Duration.ofMinutes(31));
    assertThat(catalog.sets().expire(Duration.ofHours(1))).isEqualTo(1);
    assertThat(catalog.reads().chunk("mpi", id("o2"))).isNull();
    assertThat(catalog.reads().chunk("mpi", id("o1")).refs()).isEqualTo(2);
    assertThat(catalog.sets().progress("mpi", "job", "old").committed()).isZero();
    assertThat(catalog.sets().progress("mpi", "job", "young").committed()).isEqualTo(1);
    assertThat(catalog.reads().versions("mpi", "job")).extracting(VersionRow::set).containsExactly("done");
    // a part arriving after its set expired starts the set again rather than completing a half of it
    assertThat(commitPart("old", 1, 2, "o3", "o4")).isZero();
  }

  @Test
  void aSetSurvivesATrackerRestartBetweenParts() throws IOException {
    commitPart("e7", 0, 2, "p", "q");
    reopen();
    assertThat(commitPart("e7", 1, 2, "r", "q")).isEqualTo(1);
    assertThat(catalog.reads().versions("mpi", "job").get(0).parts()).isEqualTo(2);
  }

  private long commitPart(String set, int part, int parts, String c1, String c2) throws IOException {
    return commitPart(set, part, parts, c1, c2, null);
  }

  /** Part {@code part} of {@code set}: two chunks named by the seeds c1 and c2, each sent unless the app holds it. */
  private long commitPart(String set, int part, int parts, String c1, String c2, String session) throws IOException {
    List<ChunkRef> refs = List.of(new ChunkRef(id(c1), CHUNK), new ChunkRef(id(c2), CHUNK));
    Manifest m = Manifest.of("mpi", "job", 0, CHUNK, "code:2+1", "none", "file", clock.millis(), "host" + part, refs)
        .withSet(new Manifest.SetPart(set, part, parts));
    List<Catalog.NewChunk> sent = new ArrayList<>();
    for (ChunkRef r : refs) {
      sent.add(new Catalog.NewChunk(r.id(), List.of("p1", "p2", "p3"), 3000, List.of("00000001", "00000002", "00000003")));
    }
    return catalog.commit(m, sent, session);
  }

  private static ChunkId id(String seed) {
    return ChunkId.of(seed.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
