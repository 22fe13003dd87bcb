package org.cairn.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.availability.Crls;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.api.TrackerApi;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /api/v1/durability} says why repair is not progressing. No network, a clock moved by hand. */
class StalledRepairTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final String AUTH = "Bearer " + TOKEN;
  private static final String CHUNK = ChunkId.of(new byte[] {42}).hex();

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private TrackerStore store;
  private RepairService repair;
  private TrackerApi api;
  /** A second repair service over the same catalog: its first scan walks, for comparing counts. */
  private java.util.function.Supplier<RepairService> freshRepair;

  @BeforeEach
  void open() throws IOException {
    store = TrackerStore.open(dir);
    EventLog events = new EventLog(clock, 100);
    Membership membership = new Membership(store, clock, Duration.ofSeconds(3), events);
    History history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
    PlacementService placement = new PlacementService(store, membership, history, clock, Crls.defaults(), Duration.ofDays(7),
        Duration.ofSeconds(10));
    Catalog catalog = new Catalog(store, clock, events);
    RepairService.Config config = new RepairService.Config(Duration.ofMinutes(10), Duration.ofSeconds(1), 4, Duration.ofMinutes(2));
    repair = new RepairService(catalog, membership, placement, events, clock, config);
    freshRepair = () -> new RepairService(catalog, membership, placement, events, clock, config);
    api = new TrackerApi(org.cairn.tracker.auth.Credentials.open(dir.resolve("auth"), GridToken.of(TOKEN), clock), membership, history, placement,
        new Metrics(() -> TrackerApi.countByState(membership.peers()), repair::stalledByKind), clock, Duration.ofSeconds(1),
        Crls.defaults(), catalog, repair, events);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void stalled_isAnEmptyListWhenHealthy() throws IOException {
    peers("RUNNING", "p1", "p2", "p3", "p4", "p5", "p6");
    store4plus2("p1", "p2", "p3", "p4", "p5", "p6");
    JsonNode d = durability();
    assertThat(d.get("healthy").asLong()).isEqualTo(1);
    assertThat(d.get("stalled").isArray()).isTrue();
    assertThat(d.get("stalled")).isEmpty();
    assertThat(JSON.treeToValue(d, DurabilityView.class).stalled()).isEmpty();
  }

  @Test
  void stalled_namesTheHostsA4plus2ChunkLacks_afterOneOfSixPeersLeft() throws IOException {
    peers("RUNNING", "p1", "p2", "p3", "p4", "p5", "p6");
    store4plus2("p1", "p2", "p3", "p4", "p5", "p6");
    call(200, "POST", "/api/v1/peers/p6/leave", "{}"); // repaired at once: no grace period

    JsonNode d = durability();
    assertThat(d.get("repairQueue").asInt()).isEqualTo(1);
    assertThat(d.get("stalled")).hasSize(1);
    JsonNode s = d.get("stalled").get(0);
    assertThat(s.get("reason").asText()).isEqualTo("4+2 chunks need 6 live hosts, 5 are RUNNING (add or restart a donor)");
    assertThat(s.get("chunks").asInt()).isEqualTo(1);
    assertThat(s.get("kind").asText()).isEqualTo("hosts");
    DurabilityView.Stalled typed = JSON.treeToValue(d, DurabilityView.class).stalled().get(0);
    assertThat(typed.chunks()).isEqualTo(1);
    // the planner agrees: nobody gets the job
    assertThat(call(200, "POST", "/api/v1/peers/p1/repair", "{}").get("jobs")).isEmpty();
    assertThat(metrics()).contains("cairn_repair_stalled_chunks{kind=\"hosts\"} 1", "cairn_repair_stalled_chunks{kind=\"grace\"} 0");

    // a new donor unblocks it: no reason left, and the job goes out with the new donor as its target
    peers("RUNNING", "p7");
    assertThat(durability().get("stalled")).isEmpty();
    JsonNode job = call(200, "POST", "/api/v1/peers/p1/repair", "{}").get("jobs").get(0);
    assertThat(job.get("targets").get(0).get("peer").asText()).isEqualTo("p7");
  }

  @Test
  void stalled_countsDownTheGracePeriodOfADownHolder() throws IOException {
    peers("RUNNING", "g1", "g2", "g3", "g4", "g5", "g6", "g7");
    store4plus2("g1", "g2", "g3", "g4", "g5", "g6");
    clock.advance(Duration.ofSeconds(4)); // g6 stops heartbeating: DOWN after the 3 s timeout
    beat("RUNNING", "g1", "g2", "g3", "g4", "g5", "g7");

    JsonNode d = durability();
    assertThat(d.get("degraded").asLong()).isEqualTo(1);
    assertThat(d.get("repairQueue").asInt()).isZero();
    assertThat(d.get("stalled")).hasSize(1);
    assertThat(d.get("stalled").get(0).get("reason").asText())
        .startsWith("grace period: 10m left for g6 before its pieces are rebuilt");
    assertThat(d.get("stalled").get(0).get("kind").asText()).isEqualTo("grace");
    assertThat(d.get("stalled").get(0).get("chunks").asInt()).isEqualTo(1);
    assertThat(d.get("backlogBytes").asLong()).as("nothing is due for rebuilding within the grace").isZero();

    clock.advance(Duration.ofMinutes(7));
    beat("RUNNING", "g1", "g2", "g3", "g4", "g5", "g7");
    assertThat(durability().get("stalled").get(0).get("reason").asText()).startsWith("grace period: 3m left for g6");

    // past the grace the chunk is queued, and g7 can take the piece: nothing is stalled
    clock.advance(Duration.ofMinutes(4));
    beat("RUNNING", "g1", "g2", "g3", "g4", "g5", "g7");
    d = durability();
    assertThat(d.get("repairQueue").asInt()).isEqualTo(1);
    assertThat(d.get("stalled")).isEmpty();
    assertThat(d.get("backlogBytes").asLong()).as("g6's piece: a sixth of the chunk's 600 bytes").isEqualTo(100);
    assertThat(d.get("etaSeconds").isNull()).as("nothing repaired yet: no estimate").isTrue();
  }

  @Test
  void stalled_saysWhyNoOtherPeerQualifies_andWhenNobodyMayExecute() throws IOException {
    peers("RUNNING", "t1", "t2", "t3", "t4", "t5", "t6");
    peers("LOADED", "t7");
    store4plus2("t1", "t2", "t3", "t4", "t5", "t6");
    call(200, "POST", "/api/v1/peers/t6/leave", "{}");
    assertThat(reasons()).containsExactly("4+2 chunks have no repair target: the 1 live peers without a piece are LOADED (1)"
        + " (wait until a donor is RUNNING, add a donor)");

    clock.advance(Duration.ofSeconds(2));
    call(200, "POST", "/api/v1/peers/t7/heartbeat", "{\"state\":\"RUNNING\",\"freeBytes\":1000000000}");
    for (String p : List.of("t1", "t2", "t3", "t4", "t5")) {
      call(200, "POST", "/api/v1/peers/" + p + "/heartbeat", "{\"state\":\"RUNNING\",\"freeBytes\":1000000000,\"paused\":true}");
    }
    call(200, "POST", "/api/v1/peers/t7/heartbeat", "{\"state\":\"RUNNING\",\"freeBytes\":1000000000,\"paused\":true}");
    assertThat(reasons()).containsExactly(
        "4+2 chunks have no repair target: the 1 live peers without a piece are paused (1) (resume a donor, add a donor)",
        "no RUNNING peer may execute repairs (all paused/busy: 6 paused; a RUNNING, unpaused donor claims them)");
  }

  @Test
  void stalled_saysALostChunkCannotBeRepaired() throws IOException {
    peers("RUNNING", "l1", "l2", "l3", "l4", "l5", "l6");
    store4plus2("l1", "l2", "l3", "l4", "l5", "l6");
    for (String p : List.of("l4", "l5", "l6")) {
      call(200, "POST", "/api/v1/peers/" + p + "/leave", "{}");
    }
    JsonNode d = durability();
    assertThat(d.get("lost").asLong()).isEqualTo(1);
    assertThat(d.get("repairQueue").asInt()).as("holders that left are not asked").isZero();
    assertThat(d.get("stalled")).hasSize(1);
    assertThat(d.get("stalled").get(0).get("kind").asText()).isEqualTo("lost");
    assertThat(d.get("stalled").get(0).get("reason").asText()).startsWith("4+2 chunks are lost: fewer than 4 of their 6 pieces")
        .contains("cannot be repaired");
  }

  /**
   * Holders that stopped heartbeating without leaving may still answer their peers (the tracker is cut off from them, or
   * their heartbeats fail): a chunk fewer than m live holders hold is queued after the chunks live holders can restore,
   * and its job names those holders last, as DOWN, for the executor's reader to ask when the live ones cannot give m.
   */
  @Test
  void claim_triesAChunkFewerThanMLiveHoldersHold_afterTheRestorableOnes_askingItsHoldersListedDownLast() throws IOException {
    peers("RUNNING", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9");
    store4plus2("w1", "w2", "w3", "w4", "w5", "w6"); // CHUNK: 3 live holders of 4 needed once w4-w6 are DOWN
    String restorable = ChunkId.of(new byte[] {7}).hex();
    commitOn("n2", List.of(restorable), "w1", "w2", "w3", "w4", "w5", "w7"); // 4 live: restorable from live holders
    clock.advance(Duration.ofSeconds(4)); // w4, w5, w6 stop heartbeating: DOWN after the 3 s timeout
    beat("RUNNING", "w1", "w2", "w3", "w7", "w8", "w9");
    clock.advance(Duration.ofMinutes(11)); // past the 10 minute grace
    beat("RUNNING", "w1", "w2", "w3", "w7", "w8", "w9");

    JsonNode d = durability();
    assertThat(d.get("lost").asLong()).isEqualTo(1);
    assertThat(d.get("repairQueue").asInt()).as("both chunks").isEqualTo(2);
    assertThat(reasons()).anyMatch(r -> r.startsWith("4+2 chunks are lost: fewer than 4 of their 6 pieces")
        && r.contains("repaired only if holders listed DOWN still answer their peers"));

    JsonNode first = call(200, "POST", "/api/v1/peers/w8/repair", "{\"max\":1}").get("jobs");
    assertThat(first).hasSize(1);
    assertThat(first.get(0).get("chunk").asText()).as("the chunk live holders can restore first").isEqualTo(restorable);
    JsonNode job = call(200, "POST", "/api/v1/peers/w9/repair", "{\"max\":1}").get("jobs").get(0);
    assertThat(job.get("chunk").asText()).isEqualTo(CHUNK);
    List<String> sources = new ArrayList<>();
    job.get("sources").forEach(s -> sources.add(s.get("peer").asText() + ":" + s.get("state").asText()));
    assertThat(sources.subList(0, 3)).containsExactlyInAnyOrder("w1:RUNNING", "w2:RUNNING", "w3:RUNNING");
    assertThat(sources.subList(3, 6)).containsExactlyInAnyOrder("w4:DOWN", "w5:DOWN", "w6:DOWN");
    List<String> targets = new ArrayList<>();
    job.get("targets").forEach(t -> targets.add(t.get("peer").asText()));
    assertThat(targets).as("the live peers holding nothing of it").isNotEmpty().isSubsetOf("w7", "w8", "w9");
    List<String> ticketed = new ArrayList<>();
    job.get("tickets").forEach(t -> ticketed.add(t.get("peer").asText()));
    assertThat(ticketed).as("READ tickets on the holders listed DOWN too").contains("w4", "w5", "w6");

    // w9 could reach none of them (w1 is no source listed DOWN: its word about w1 counts for nothing): they are really
    // gone, so the chunk is not tried again until that is 30 scan intervals old
    call(200, "POST", "/api/v1/peers/w9/repaired", "{\"outcomes\":[{\"id\":" + JSON.writeValueAsString(job.get("id").asText())
        + ",\"placed\":[],\"error\":\"could not read enough pieces\",\"unreachable\":[\"w4\",\"w5\",\"w6\",\"w1\"]}]}");
    clock.advance(Duration.ofSeconds(2));
    beat("RUNNING", "w1", "w2", "w3", "w7", "w8", "w9");
    d = durability();
    assertThat(d.get("repairQueue").asInt()).as("not queued while its DOWN holders are known unreachable").isZero();
    assertThat(reasons()).anyMatch(r -> r.startsWith("4+2 chunks are lost") && r.contains("cannot be repaired"));
    assertThat(call(200, "POST", "/api/v1/peers/w7/repair", "{}").get("jobs")).isEmpty();
    clock.advance(Duration.ofSeconds(29));
    beat("RUNNING", "w1", "w2", "w3", "w7", "w8", "w9");
    JsonNode again = call(200, "POST", "/api/v1/peers/w7/repair", "{}").get("jobs");
    assertThat(again).as("tried again once that is old").hasSize(1);
    assertThat(again.get(0).get("chunk").asText()).isEqualTo(CHUNK);
    List<String> sourcesAgain = new ArrayList<>();
    again.get(0).get("sources").forEach(src -> sourcesAgain.add(src.get("peer").asText()));
    assertThat(sourcesAgain).as("w1 still a source").contains("w1", "w4", "w5", "w6");
  }

  @Test
  void claim_reachesARepairableChunkBehindManyStalledOnes() throws IOException {
    peers("RUNNING", "q1", "q2", "q3", "q4", "q5", "q6");
    call(200, "POST", "/api/v1/peers", "{\"id\":\"q7\",\"address\":\"127.0.0.1:9797\",\"state\":\"RUNNING\","
        + "\"freeBytes\":1000,\"quotaBytes\":1000}"); // room for a small fragment only
    List<String> big = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      big.add(ChunkId.of(new byte[] {1, (byte) i}).hex());
    }
    String small = ChunkId.of(new byte[] {2}).hex();
    commit("n1", "code:4+2", 600_000, big);
    commit("n2", "code:3+3", 600, List.of(small));
    call(200, "POST", "/api/v1/peers/q6/leave", "{}");

    // the 4+2 chunks come first by risk (1 piece to spare against 2) but nobody can take their 100 kB pieces
    assertThat(reasons()).containsExactly("4+2 chunks have no repair target: the 1 live peers without a piece are out of space (1)"
        + " (free space on a donor, add a donor)");
    assertThat(durability().get("stalled").get(0).get("chunks").asInt()).isEqualTo(17);
    JsonNode jobs = call(200, "POST", "/api/v1/peers/q1/repair", "{\"max\":4}").get("jobs");
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).get("chunk").asText()).isEqualTo(small);
    assertThat(jobs.get(0).get("targets").get(0).get("peer").asText()).isEqualTo("q7");
  }

  @Test
  void scan_skipsTheWalkWhileAHealthyGridIsUnchanged_andWalksAgainWhenAPeerGoesOrAVersionCommits() throws IOException {
    peers("RUNNING", "s1", "s2", "s3", "s4", "s5", "s6");
    store4plus2("s1", "s2", "s3", "s4", "s5", "s6");
    assertThat(durability().get("healthy").asLong()).isEqualTo(1);
    long walked = repair.walks();
    for (int i = 0; i < 5; i++) { // heartbeats that change nothing the scan reads
      clock.advance(Duration.ofSeconds(1));
      beat("RUNNING", "s1", "s2", "s3", "s4", "s5", "s6");
      assertThat(durability().get("healthy").asLong()).isEqualTo(1);
    }
    assertThat(repair.walks()).as("nothing changed on a healthy grid").isEqualTo(walked);

    commit("n2", "code:4+2", 600, List.of(ChunkId.of(new byte[] {7}).hex())); // holders q1..q6 are unknown
    JsonNode d = durability();
    assertThat(repair.walks()).isEqualTo(walked + 1);
    assertThat(d.get("chunks").asLong()).isEqualTo(2);
    assertThat(d.get("lost").asLong()).as("the new chunk's holders are not members").isEqualTo(1);
    durability();
    assertThat(repair.walks()).as("an unhealthy grid is walked at every scan").isEqualTo(walked + 2);
  }

  @Test
  void scan_foldsCommitsOfHealthyChunksIntoTheLastWalk_withTheCountsAWalkWouldGive() throws IOException {
    peers("RUNNING", "s1", "s2", "s3", "s4", "s5", "s6");
    store4plus2("s1", "s2", "s3", "s4", "s5", "s6");
    durability();
    long walked = repair.walks();
    String a = ChunkId.of(new byte[] {7}).hex();
    String b = ChunkId.of(new byte[] {8}).hex();
    String c = ChunkId.of(new byte[] {9}).hex();
    commitOn("n2", List.of(a, b), "s1", "s2", "s3", "s4", "s5", "s6");
    clock.advance(Duration.ofSeconds(1));
    beat("RUNNING", "s1", "s2", "s3", "s4", "s5", "s6");
    JsonNode d = durability();
    commitOn("n1", List.of(CHUNK, c), "s6", "s5", "s4", "s3", "s2", "s1"); // CHUNK is held: deduplicated
    commitOn("n2", List.of(b), "s1", "s2", "s3", "s4", "s5", "s6");
    clock.advance(Duration.ofSeconds(1));
    beat("RUNNING", "s1", "s2", "s3", "s4", "s5", "s6");
    d = durability();
    assertThat(repair.walks()).as("commits of healthy chunks are folded in, not walked").isEqualTo(walked);
    assertThat(repair.folds()).isEqualTo(2);
    assertThat(d.get("chunks").asLong()).isEqualTo(4);
    assertThat(d.get("healthy").asLong()).isEqualTo(4);

    RepairService walking = freshRepair.get();
    DurabilityView byWalk = walking.durability();
    DurabilityView byFold = repair.durability();
    assertThat(walking.walks()).isEqualTo(1);
    assertThat(byFold.chunks()).isEqualTo(byWalk.chunks());
    assertThat(byFold.healthy()).isEqualTo(byWalk.healthy());
    assertThat(byFold.neededBytes()).isEqualTo(byWalk.neededBytes()).isEqualTo(4 * 600);
    assertThat(byFold.latest()).isEqualTo(byWalk.latest()).extracting(DurabilityView.Latest::step).containsExactly(2L, 2L);

    // anything else written walks: a version deleted
    var r = api.handle("DELETE", "/api/v1/versions", Map.of("app", "heat", "node", "n2", "step", "2"), new byte[0], AUTH);
    assertThat(r.status()).isEqualTo(200);
    clock.advance(Duration.ofSeconds(1));
    beat("RUNNING", "s1", "s2", "s3", "s4", "s5", "s6");
    assertThat(durability().get("chunks").asLong()).isEqualTo(4); // b is still referenced by n2's step 1
    assertThat(repair.walks()).isEqualTo(walked + 1);
    // and a commit whose pieces are not all on live peers
    commitOn("n3", List.of(ChunkId.of(new byte[] {10}).hex()), "s1", "s2", "s3", "s4", "s5", "gone");
    clock.advance(Duration.ofSeconds(1));
    beat("RUNNING", "s1", "s2", "s3", "s4", "s5", "s6");
    d = durability();
    assertThat(repair.walks()).isEqualTo(walked + 2);
    assertThat(d.get("degraded").asLong()).as(d.toString()).isEqualTo(1);
  }

  @Test
  void scan_walksAgainWhenAHolderGoesDown_andAtLeastEveryThirtyIntervals() throws IOException {
    peers("RUNNING", "d1", "d2", "d3", "d4", "d5", "d6");
    store4plus2("d1", "d2", "d3", "d4", "d5", "d6");
    durability();
    long walked = repair.walks();
    clock.advance(Duration.ofSeconds(4)); // d6 stops heartbeating: DOWN after the 3 s timeout
    beat("RUNNING", "d1", "d2", "d3", "d4", "d5");
    assertThat(durability().get("degraded").asLong()).isEqualTo(1);
    assertThat(repair.walks()).isEqualTo(walked + 1);

    beat("RUNNING", "d6"); // back within the grace period: healthy again
    assertThat(durability().get("healthy").asLong()).isEqualTo(1);
    walked = repair.walks();
    clock.advance(Duration.ofSeconds(RepairService.UNCHANGED_SCANS_SKIPPED - 1)); // the interval is 1 s here
    beat("RUNNING", "d1", "d2", "d3", "d4", "d5", "d6");
    durability();
    assertThat(repair.walks()).isEqualTo(walked);
    clock.advance(Duration.ofSeconds(1));
    beat("RUNNING", "d1", "d2", "d3", "d4", "d5", "d6");
    durability();
    assertThat(repair.walks()).as("walked again after 30 scan intervals").isEqualTo(walked + 1);
  }

  @Test
  void claimedJobs_goBackToTheQueue_whenTheirExecutorGoesDownOrRestarts_beforeTheJobTimeout() throws IOException {
    register("e1", "run-1", 2_000_000_000L);
    peers("RUNNING", "e2", "e3", "e4", "e5", "e6", "e7");
    store4plus2("e1", "e2", "e3", "e4", "e5", "e6");
    call(200, "POST", "/api/v1/peers/e6/leave", "{}");
    assertThat(durability().get("repairQueue").asInt()).isEqualTo(1);
    assertThat(call(200, "POST", "/api/v1/peers/e1/repair", "{}").get("jobs")).hasSize(1);
    assertThat(durability().get("repairing").asInt()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    register("e1", "run-1", 3_000_000_000L); // the same process again: its donor changed the quota
    assertThat(durability().get("repairing").asInt()).as("a quota change is not a restart").isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    register("e1", "run-2", 3_000_000_000L); // e1's process started again: the job it claimed is lost with it
    JsonNode d = durability();
    assertThat(d.get("repairing").asInt()).as("not the 2 minutes of the job timeout").isZero();
    assertThat(d.get("repairQueue").asInt()).isEqualTo(1);
    assertThat(call(200, "POST", "/api/v1/peers/e2/repair", "{}").get("jobs")).hasSize(1);

    clock.advance(Duration.ofSeconds(4)); // e2 stops heartbeating: DOWN after the 3 s timeout
    beat("RUNNING", "e1", "e3", "e4", "e5", "e7");
    d = durability();
    assertThat(d.get("repairing").asInt()).isZero();
    assertThat(d.get("failedRepairs").asLong()).isEqualTo(2);
    JsonNode job = call(200, "POST", "/api/v1/peers/e3/repair", "{}").get("jobs").get(0);
    assertThat(job.get("targets").get(0).get("peer").asText()).isEqualTo("e7");
  }

  /**
   * A scan holds the repair service's lock for its whole walk of the chunk index (seconds on a large grid): a heartbeat's
   * answer (the jobs queued) and a version list's status read the last scan's without waiting for it. Every heartbeat
   * waited for the walk before, and peers were marked DOWN for it.
   */
  @Test
  void heartbeatAnswersAndVersionStatus_doNotWaitForAScanInProgress() throws Exception {
    peers("RUNNING", "h1", "h2", "h3", "h4", "h5", "h6", "h7");
    store4plus2("h1", "h2", "h3", "h4", "h5", "h6");
    call(200, "POST", "/api/v1/peers/h6/leave", "{}"); // repaired at once: no grace period
    int queued = repair.scan().queued();
    assertThat(queued).isEqualTo(1);
    java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Thread scanning = new Thread(() -> {
      synchronized (repair) { // as scan() holds it while it walks
        held.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    scanning.start();
    try {
      assertThat(held.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(java.util.concurrent.CompletableFuture.supplyAsync(repair::queued).get(5, java.util.concurrent.TimeUnit.SECONDS))
          .isEqualTo(queued);
      assertThat(call(200, "POST", "/api/v1/peers/h1/heartbeat", "{\"state\":\"RUNNING\",\"freeBytes\":1000000000}").get("repairQueued").asInt())
          .isEqualTo(queued);
      List<ChunkId> chunk = List.of(ChunkId.parse(CHUNK));
      assertThat(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return repair.status("heat", chunk);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("degraded");
    } finally {
      release.countDown();
      scanning.join();
    }
  }

  private JsonNode durability() throws IOException {
    repair.scan();
    return call(200, "GET", "/api/v1/durability", null);
  }

  private List<String> reasons() throws IOException {
    List<String> out = new ArrayList<>();
    durability().get("stalled").forEach(s -> out.add(s.get("reason").asText()));
    return out;
  }

  private String metrics() throws IOException {
    var r = api.handle("GET", "/metrics", Map.of(), new byte[0], AUTH);
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  private void peers(String state, String... ids) throws IOException {
    for (String id : ids) {
      call(200, "POST", "/api/v1/peers", "{\"id\":\"" + id + "\",\"address\":\"127.0.0.1:" + (10000 + Math.floorMod(id.hashCode(), 50000)) + "\",\"state\":\""
          + state + "\",\"freeBytes\":1000000000,\"quotaBytes\":2000000000}");
    }
  }

  /** Registers a peer as its process {@code instance} does. */
  private void register(String id, String instance, long quotaBytes) throws IOException {
    call(200, "POST", "/api/v1/peers", "{\"id\":\"" + id + "\",\"address\":\"127.0.0.1:" + (10000 + Math.floorMod(id.hashCode(), 50000)) + "\",\"state\":\"RUNNING\","
        + "\"freeBytes\":1000000000,\"quotaBytes\":" + quotaBytes + ",\"instance\":\"" + instance + "\"}");
  }

  private void beat(String state, String... ids) throws IOException {
    for (String id : ids) {
      call(200, "POST", "/api/v1/peers/" + id + "/heartbeat", "{\"state\":\"" + state + "\",\"freeBytes\":1000000000}");
    }
  }

  /** Commits one version of one code:4+2 chunk with a piece on each of the six holders. */
  private void store4plus2(String... holders) throws IOException {
    String manifest = "{\"schemaVersion\":1,\"app\":\"heat\",\"node\":\"n1\",\"step\":0,\"size\":100,\"chunkSize\":100,"
        + "\"redundancy\":\"code:4+2\",\"compression\":\"auto\",\"createdAt\":5,\"chunks\":[{\"id\":\"" + CHUNK
        + "\",\"length\":100}]}";
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifest + ",\"chunks\":[{\"id\":\"" + CHUNK + "\",\"holders\":"
        + JSON.writeValueAsString(List.of(holders)) + ",\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\",\"0000000d\","
        + "\"0000000e\",\"0000000f\"],\"storedBytes\":600}]}");
  }

  /** Commits heat/{@code node}'s next step: the chunks, each with 600 bytes of pieces on {@code holders} (CHUNK is held: not sent). */
  private void commitOn(String node, List<String> ids, String... holders) throws IOException {
    StringBuilder listed = new StringBuilder();
    StringBuilder sent = new StringBuilder();
    for (String id : ids) {
      listed.append(listed.length() > 0 ? "," : "").append("{\"id\":\"").append(id).append("\",\"length\":100}");
      if (!id.equals(CHUNK)) {
        sent.append(sent.length() > 0 ? "," : "").append("{\"id\":\"").append(id).append("\",\"holders\":")
            .append(JSON.writeValueAsString(List.of(holders))).append(",\"tags\":[\"0000000a\",\"0000000b\",\"0000000c\",")
            .append("\"0000000d\",\"0000000e\",\"0000000f\"],\"storedBytes\":600}");
      }
    }
    String manifest = "{\"schemaVersion\":1,\"app\":\"heat\",\"node\":\"" + node + "\",\"step\":0,\"size\":"
        + 100 * ids.size() + ",\"chunkSize\":100,\"redundancy\":\"code:4+2\",\"compression\":\"auto\",\"createdAt\":5,"
        + "\"chunks\":[" + listed + "]}";
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifest + ",\"chunks\":[" + sent + "]}");
  }

  /** Commits step 0 of heat/{@code node}: the chunks, each with a piece on q1..q6. */
  private void commit(String node, String coding, long storedBytes, List<String> ids) throws IOException {
    StringBuilder listed = new StringBuilder();
    StringBuilder sent = new StringBuilder();
    for (String id : ids) {
      listed.append(listed.length() > 0 ? "," : "").append("{\"id\":\"").append(id).append("\",\"length\":100}");
      sent.append(sent.length() > 0 ? "," : "").append("{\"id\":\"").append(id)
          .append("\",\"holders\":[\"q1\",\"q2\",\"q3\",\"q4\",\"q5\",\"q6\"],\"tags\":[\"0000000a\",\"0000000b\",")
          .append("\"0000000c\",\"0000000d\",\"0000000e\",\"0000000f\"],\"storedBytes\":").append(storedBytes).append('}');
    }
    String manifest = "{\"schemaVersion\":1,\"app\":\"heat\",\"node\":\"" + node + "\",\"step\":0,\"size\":"
        + 100 * ids.size() + ",\"chunkSize\":100,\"redundancy\":\"" + coding + "\",\"compression\":\"auto\",\"createdAt\":5,"
        + "\"chunks\":[" + listed + "]}";
    call(200, "POST", "/api/v1/versions", "{\"manifest\":" + manifest + ",\"chunks\":[" + sent + "]}");
  }

  private JsonNode call(int expectedStatus, String method, String path, String body) throws IOException {
    var r = api.handle(method, path, Map.of(), body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), AUTH);
    String text = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(r.status()).as("%s %s -> %s", method, path, text).isEqualTo(expectedStatus);
    return JSON.readTree(text);
  }
}
