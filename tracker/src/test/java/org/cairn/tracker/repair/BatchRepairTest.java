package org.cairn.tracker.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.protocol.FragmentKey;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A peer claims repairs as a batch of chunks bounded by bytes, and each chunk of the batch commits or fails alone. */
class BatchRepairTest extends RepairFixture {
  private static final List<String> CHUNKS = List.of("c0", "c1", "c2", "c3", "c4", "c5");
  /** Each chunk's pieces: 3000 bytes stored as code:2+2. */
  private static final long PIECE = 750;

  @BeforeEach
  void chunksWhoseHolderLeft() throws IOException {
    peers("p1", "p2", "p3", "p4", "p5");
    for (String c : CHUNKS) {
      commit("heat", c, "p1", "p2", "p3", "p4");
    }
    membership.leave("p4"); // repaired at once
    assertThat(repair.scan().queued()).isEqualTo(CHUNKS.size());
  }

  private List<RepairJob> batch(String peer, long maxBytes) throws IOException {
    return repair.claim(peer, 256, maxBytes);
  }

  private static byte[] keyOf(RepairJob job, int tag) {
    return new FragmentKey(org.cairn.core.hash.ChunkId.parse(job.chunk()), 3, tag).toBytes();
  }

  private static byte[] keyOf(RepairJob job) {
    return keyOf(job, FragmentKey.parseTag(job.tags().get(3)));
  }

  @Test
  void aBatchClaimHandsOutSeveralChunks_boundedByTheBytesTheyRebuild() throws IOException {
    List<RepairJob> jobs = batch("p1", PIECE * 3);
    assertThat(jobs).hasSize(3);
    assertThat(jobs).allSatisfy(j -> assertThat(j.rebuiltBytes()).isEqualTo(PIECE));
    assertThat(batch("p2", 1)).as("a batch holds one job whatever its size").hasSize(1);
    assertThat(repair.queued()).isEqualTo(2);
  }

  @Test
  void aPeerThatClaimsByCount_isStillBoundedByJobsPerPeer() throws IOException {
    assertThat(repair.claim("p1", 64)).hasSize(4);
    assertThat(repair.claim("p1", 64)).as("four in flight already").isEmpty();
  }

  @Test
  void aBatchClaim_isBoundedByTheBytesThePeerHasInFlight() throws IOException {
    RepairService small = new RepairService(catalog, membership, placement, events, clock,
        new RepairService.Config(java.time.Duration.ofMinutes(10), java.time.Duration.ofSeconds(1), 4,
            java.time.Duration.ofMinutes(2), PIECE * 2));
    small.scan();
    assertThat(small.claim("p1", 256, 1L << 30)).hasSize(2);
    assertThat(small.claim("p1", 256, 1L << 30)).as("its bytes in flight are at the limit").isEmpty();
  }

  @Test
  void aBatchWhoseOneChunkFailed_commitsTheRest_andThatOneIsPlannedAgain() throws IOException {
    List<RepairJob> jobs = batch("p1", 1L << 30);
    assertThat(jobs).hasSize(CHUNKS.size());
    List<RepairOutcome> outcomes = new ArrayList<>();
    for (RepairJob j : jobs) {
      outcomes.add(j == jobs.get(2) ? new RepairOutcome(j.id(), List.of(), "could not read enough pieces")
          : new RepairOutcome(j.id(), j.targets(), null));
    }
    repair.report("p1", outcomes);
    List<byte[]> listed = new ArrayList<>();
    for (RepairJob j : jobs) {
      if (j != jobs.get(2)) {
        listed.add(keyOf(j));
      }
    }
    assertThat(catalog.holders().garbage("p5", listed)).as("the rebuilt pieces are the index's now").isEmpty();
    assertThat(repair.lastDurability().repairedFragments()).isEqualTo(CHUNKS.size() - 1);
    clock.advance(java.time.Duration.ofSeconds(2));
    beatAll();
    // the failed job's executor and target are avoided for that chunk a while: a new peer takes its piece
    membership.register(new org.cairn.core.api.member.RegisterRequest("p6", "127.0.0.1:7006", "RUNNING", 1L << 30, 0, 1L << 31, 0,
        false, "t"));
    assertThat(repair.scan().queued()).as("the failed chunk alone").isEqualTo(1);
    List<RepairJob> again = repair.claim("p2", 256, 1L << 30);
    assertThat(again).extracting(RepairJob::chunk).containsExactly(jobs.get(2).chunk());
  }

  @Test
  void aRebuiltPieceListedWithAnotherTag_isNotEntered_andTheRestOfTheBatchIs() throws IOException {
    List<RepairJob> jobs = batch("p1", 1L << 30);
    List<RepairOutcome> outcomes = new ArrayList<>();
    for (RepairJob j : jobs) {
      outcomes.add(new RepairOutcome(j.id(), j.targets(), null));
    }
    repair.report("p1", outcomes);
    List<byte[]> listed = new ArrayList<>();
    listed.add(keyOf(jobs.get(0), 0x0bad0bad)); // a piece that is not the one the index records
    for (RepairJob j : jobs.subList(1, jobs.size())) {
      listed.add(keyOf(j));
    }
    assertThat(catalog.holders().garbage("p5", listed)).as("the forged piece is garbage").hasSize(1);
    assertThat(catalog.reads().chunk("heat", org.cairn.core.hash.ChunkId.parse(jobs.get(0).chunk())).holders().get(3))
        .as("not entered").isEqualTo("p4");
    assertThat(repair.unconfirmed()).as("the true piece may still come").isEqualTo(1);
    assertThat(repair.lastDurability().repairedFragments()).isEqualTo(CHUNKS.size() - 1);
  }

  @Test
  void aPeerReportingABatchItWasNotHanded_changesNothing() throws IOException {
    List<RepairJob> jobs = batch("p1", 1L << 30);
    List<RepairOutcome> outcomes = new ArrayList<>();
    for (RepairJob j : jobs) {
      outcomes.add(new RepairOutcome(j.id(), List.of(new RepairJob.Piece(3, "p2", "127.0.0.1:7001")), null));
    }
    repair.report("p2", outcomes);
    assertThat(repair.unconfirmed()).isZero();
    for (String c : CHUNKS) {
      assertThat(holders("heat", c).get(3)).isEqualTo("p4");
    }
    repair.report("p1", List.of(new RepairOutcome(jobs.get(0).id(), List.of(new RepairJob.Piece(3, "p1", "127.0.0.1:7000")), null)));
    for (String c : CHUNKS) {
      assertThat(holders("heat", c).get(3)).as("a piece its job did not ask for").isEqualTo("p4");
    }
  }

  @Test
  void aBatchWhoseExecutorDies_isHandedOutAgain_withNothingEntered() throws IOException {
    List<RepairJob> jobs = batch("p1", 1L << 30);
    assertThat(jobs).hasSize(CHUNKS.size());
    clock.advance(java.time.Duration.ofSeconds(5)); // past the heartbeat timeout
    for (String p : List.of("p2", "p3", "p5")) {
      membership.heartbeat(p, new HeartbeatRequest("RUNNING", 1L << 30, 0, 0, false));
    }
    assertThat(repair.scan().queued()).isEqualTo(CHUNKS.size());
    repair.report("p1", List.of(new RepairOutcome(jobs.get(0).id(), jobs.get(0).targets(), null)));
    assertThat(repair.unconfirmed()).as("a late report of the dead executor is ignored").isZero();
    List<RepairJob> again = repair.claim("p2", 256, 1L << 30);
    assertThat(again).hasSize(CHUNKS.size());
    for (String c : CHUNKS) {
      assertThat(holders("heat", c).get(3)).isEqualTo("p4");
    }
  }

  private void beatAll() throws IOException {
    for (String p : List.of("p1", "p2", "p3", "p5")) {
      membership.heartbeat(p, new HeartbeatRequest("RUNNING", 1L << 30, 0, 0, false));
    }
  }
}
