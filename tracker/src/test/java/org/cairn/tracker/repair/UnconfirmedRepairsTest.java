package org.cairn.tracker.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.protocol.FragmentKey;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A rebuilt piece an executor says it placed on another peer counts only once that peer lists it. */
class UnconfirmedRepairsTest extends RepairFixture {
  private RepairJob job;

  @BeforeEach
  void aChunkWhoseHolderLeft() throws IOException {
    peers("p1", "p2", "p3", "p4", "p5");
    commit("heat", "c", "p1", "p2", "p3", "p4");
    membership.leave("p4"); // repaired at once
    repair.scan();
    List<RepairJob> jobs = repair.claim("p1", 4);
    assertThat(jobs).hasSize(1);
    job = jobs.get(0);
    assertThat(job.targets()).extracting(RepairJob.Piece::peer).containsExactly("p5");
  }

  private void executorSaysPlaced() throws IOException {
    repair.report("p1", List.of(new RepairOutcome(job.id(), job.targets(), null)));
  }

  private byte[] targetKey() {
    return key("c", 3);
  }

  @Test
  void anExecutorsWordAboutAnotherPeerDoesNotEnterTheIndex() throws IOException {
    executorSaysPlaced();
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", "p3", "p4");
    assertThat(repair.unconfirmed()).isEqualTo(1);
    assertThat(repair.scan().queued()).as("not planned again while its target may still list it").isZero();
    assertThat(repair.lastDurability().repairedFragments()).isZero();
  }

  @Test
  void theTargetsInventoryConfirmsIt_andItIsNotGarbage() throws IOException {
    executorSaysPlaced();
    List<byte[]> garbage = catalog.holders().garbage("p5", List.of(targetKey()));
    assertThat(garbage).isEmpty();
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", "p3", "p5");
    assertThat(repair.unconfirmed()).isZero();
    assertThat(repair.lastDurability().repairedFragments()).isEqualTo(1);
    assertThat(repair.scan().healthy()).isEqualTo(1);
  }

  @Test
  void anotherPeersInventoryOrAnotherKeyConfirmsNothing() throws IOException {
    executorSaysPlaced();
    assertThat(catalog.holders().garbage("p2", List.of(targetKey()))).hasSize(1);
    byte[] otherTag = new FragmentKey(id("c"), 3, 0x77).toBytes();
    assertThat(catalog.holders().garbage("p5", List.of(otherTag))).hasSize(1);
    assertThat(holders("heat", "c")).containsExactly("p1", "p2", "p3", "p4");
    assertThat(repair.unconfirmed()).isEqualTo(1);
  }

  @Test
  void anUnconfirmedPieceIsPlannedAgainAfterTheTimeout_avoidingItsTarget() throws IOException {
    peers("p1", "p2", "p3", "p4", "p5", "p6");
    membership.leave("p4");
    executorSaysPlaced();
    clock.advance(RepairService.UNCONFIRMED_TIMEOUT.plus(Duration.ofSeconds(1)));
    for (String p : List.of("p1", "p2", "p3", "p5", "p6")) {
      membership.heartbeat(p, new org.cairn.core.api.member.HeartbeatRequest("RUNNING", 1L << 30, 0, 0, false));
    }
    assertThat(repair.scan().queued()).isEqualTo(1);
    assertThat(repair.unconfirmed()).isZero();
    List<RepairJob> again = repair.claim("p2", 4);
    assertThat(again).hasSize(1);
    assertThat(again.get(0).targets()).extracting(RepairJob.Piece::peer).containsExactly("p6");
    assertThat(catalog.holders().garbage("p5", List.of(targetKey()))).as("too late: the piece is garbage").hasSize(1);
  }

  @Test
  void anExecutorPlacingOnItselfIsBelievedAtOnce() throws IOException {
    RepairJob.Piece self = new RepairJob.Piece(3, "p5", "127.0.0.1:7004");
    repair.report("p5", List.of(new RepairOutcome(job.id(), List.of(self), null)));
    assertThat(holders("heat", "c")).as("p5 does not own the job: ignored").containsExactly("p1", "p2", "p3", "p4");
  }
}
