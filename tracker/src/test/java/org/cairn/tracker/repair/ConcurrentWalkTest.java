package org.cairn.tracker.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A scan's walk of the chunk index runs without the service's lock: claims, reports and readers go on while it runs (a
 * test hook holds the walk between reading the index and publishing), and its publish undoes none of what they did.
 */
class ConcurrentWalkTest extends RepairFixture {
  private static final List<String> CHUNKS = List.of("c0", "c1", "c2", "c3");
  /** Longer than any of these calls takes, far shorter than a walk held by the hook (which only the test releases). */
  private static final Duration PROMPT = Duration.ofSeconds(10);

  private final CountDownLatch walked = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final ExecutorService scanner = Executors.newSingleThreadExecutor();
  private RepairService.Snapshot before;

  @BeforeEach
  void chunksWhoseHolderLeft() throws IOException {
    peers("p1", "p2", "p3", "p4", "p5");
    for (String c : CHUNKS) {
      commit("heat", c, "p1", "p2", "p3", "p4");
    }
    membership.leave("p4"); // repaired at once; p5 is the only peer holding nothing of them
    before = repair.scan();
    assertThat(before.queued()).isEqualTo(CHUNKS.size());
    assertThat(before.degraded()).isEqualTo(CHUNKS.size());
  }

  @AfterEach
  void releaseTheWalk() throws InterruptedException {
    release.countDown();
    scanner.shutdown();
    assertThat(scanner.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  /** Starts a scan that reads the whole index, then waits for the test's release before it publishes. */
  private Future<RepairService.Snapshot> walkHeldBeforePublish() throws InterruptedException {
    repair.afterWalk(() -> {
      walked.countDown();
      try {
        assertThat(release.await(30, TimeUnit.SECONDS)).as("released by the test").isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    });
    Future<RepairService.Snapshot> scan = scanner.submit(repair::scan);
    assertThat(walked.await(30, TimeUnit.SECONDS)).as("the walk has read the index").isTrue();
    return scan;
  }

  private RepairService.Snapshot published(Future<RepairService.Snapshot> scan) throws Exception {
    release.countDown();
    return scan.get(30, TimeUnit.SECONDS);
  }

  /** p5 claims one job and rebuilds its piece on itself (believed at once), all while the walk runs. */
  private RepairJob claimAndRepairOne() {
    RepairJob job = assertTimeoutPreemptively(PROMPT, () -> repair.claim("p5", 1)).get(0);
    assertThat(job.targets()).extracting(RepairJob.Piece::peer).containsExactly("p5");
    assertTimeoutPreemptively(PROMPT, () -> repair.report("p5", List.of(new RepairOutcome(job.id(), job.targets(), null))));
    return job;
  }

  /** Claims every job left, one peer at a time, and returns their chunks. */
  private List<String> claimAll() throws IOException {
    List<String> chunks = new ArrayList<>();
    for (String p : List.of("p1", "p2", "p3", "p5")) {
      repair.claim(p, 64).forEach(j -> chunks.add(j.chunk()));
    }
    return chunks;
  }

  @Test
  void aClaimAndAReportDuringAWalk_doNotWaitForIt() throws Exception {
    Future<RepairService.Snapshot> scan = walkHeldBeforePublish();
    RepairJob job = claimAndRepairOne();
    assertThat(holders("heat", seedOf(job))).as("the report entered the index during the walk").contains("p5");
    assertThat(scan.isDone()).as("the walk is still held").isFalse();
    published(scan);
  }

  @Test
  void aChunkRepairedDuringAWalk_isNotQueuedNorCountedAtRiskByItsPublish() throws Exception {
    Future<RepairService.Snapshot> scan = walkHeldBeforePublish(); // it read every chunk degraded and none in flight
    RepairJob repaired = claimAndRepairOne();
    RepairService.Snapshot after = published(scan);
    assertThat(after.healthy()).isEqualTo(1);
    assertThat(after.degraded()).isEqualTo(CHUNKS.size() - 1);
    assertThat(after.queued()).isEqualTo(CHUNKS.size() - 1);
    assertThat(after.unhealthy()).doesNotContainKey(repaired.id());
    assertThat(repair.lastDurability().degraded()).isEqualTo(CHUNKS.size() - 1);
    assertThat(claimAll()).hasSize(CHUNKS.size() - 1).doesNotContain(repaired.chunk());
  }

  @Test
  void aChunkClaimedDuringAWalk_isNotQueuedAgainByItsPublish() throws Exception {
    Future<RepairService.Snapshot> scan = walkHeldBeforePublish();
    RepairJob claimed = assertTimeoutPreemptively(PROMPT, () -> repair.claim("p5", 1)).get(0);
    RepairService.Snapshot after = published(scan);
    assertThat(after.queued()).isEqualTo(CHUNKS.size() - 1);
    assertThat(after.degraded()).as("in flight, still degraded").isEqualTo(CHUNKS.size());
    assertThat(repair.lastDurability().repairing()).isEqualTo(1);
    assertThat(claimAll()).hasSize(CHUNKS.size() - 1).doesNotContain(claimed.chunk());
  }

  @Test
  void readersSeeThePreviousSnapshotUntilTheWalkPublishes() throws Exception {
    commit("heat", "c9", "p1", "p2", "p3", "p5"); // a fifth chunk, healthy: the walk counts it
    Future<RepairService.Snapshot> scan = walkHeldBeforePublish();
    assertThat(assertTimeoutPreemptively(PROMPT, () -> repair.lastDurability().chunks())).isEqualTo(CHUNKS.size());
    assertThat(assertTimeoutPreemptively(PROMPT, () -> repair.durability().scannedAt())).isEqualTo(before.scannedAt());
    assertThat(assertTimeoutPreemptively(PROMPT, () -> repair.status("heat", List.of(id("c9"))))).isEqualTo("healthy");
    assertThat(assertTimeoutPreemptively(PROMPT, () -> repair.status("heat", List.of(id("c0"))))).isEqualTo("degraded");
    assertThat(assertTimeoutPreemptively(PROMPT, repair::stalledByKind)).isEqualTo(StallReasons.byKind(before.stalled()));
    published(scan);
    assertThat(repair.lastDurability().chunks()).isEqualTo(CHUNKS.size() + 1);
    assertThat(repair.lastDurability().healthy()).isEqualTo(1);
  }

  @Test
  void aBadPieceReportedDuringAWalk_stillAsksForTheNextScanAfterItsPublish() throws Exception {
    Future<RepairService.Snapshot> scan = walkHeldBeforePublish();
    int dropped = assertTimeoutPreemptively(PROMPT,
        () -> repair.reportBad("p1", Map.of(key("c0", 0), "scrubber: digest mismatch"), "p1", true));
    assertThat(dropped).isEqualTo(1);
    published(scan);
    assertThat(repair.lastDurability().scannedAt()).as("the walk read c0 before the report: scan again at the next read").isZero();
    assertThat(repair.durability().lost()).as("the next read scanned: c0 has 2 of its 4 pieces, p1's dropped").isZero();
    assertThat(repair.lastDurability().degraded()).isEqualTo(CHUNKS.size());
    assertThat(holders("heat", "c0").get(0)).isNull();
  }

  private static String seedOf(RepairJob job) {
    return CHUNKS.stream().filter(c -> id(c).hex().equals(job.chunk())).findFirst().orElseThrow();
  }
}
