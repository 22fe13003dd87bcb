package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three trackers (a Ratis group) and six peers, each a real process. Stores go on while
 * the leader is SIGKILLed, restarted, and a follower's disk wiped; no committed version is lost, none
 * is half visible, every fetch is byte-identical; a member that was down catches up; a leader cut off
 * from the majority commits nothing.
 */
class TrackerGroupIT {
  @TempDir
  Path root;
  private MiniGrid grid;
  private TrackerGroup group;
  /** What each stored step should fetch as. */
  private final Map<Long, Path> stored = new LinkedHashMap<>();

  @BeforeEach
  void start() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    // a snapshot every 20 log entries, so a member that comes back from nothing is sent one
    group = new TrackerGroup(grid, 3, "--snapshot-every", "20");
    group.start();
    for (int i = 0; i < 6; i++) {
      grid.startPeer("p" + i);
    }
    MiniGrid.await("six peers running", Duration.ofSeconds(30), () -> group.running() == 6);
  }

  @AfterEach
  void stop() {
    grid.close();
  }

  private Path image(String name, int mib, long seed) throws Exception {
    byte[] bytes = new byte[mib << 20];
    new Random(seed).nextBytes(bytes);
    return Files.write(root.resolve(name), bytes);
  }

  private long store(Path file) throws Exception {
    MiniGrid.Cli store = grid.cli("store", file.toString(), "--app", "ha", "--node", "n", "--json");
    assertThat(store.exit()).as(store.stderr()).isZero();
    long step = new ObjectMapper().readTree(store.stdout()).get("step").asLong();
    stored.put(step, file);
    return step;
  }

  /** Every listed version is one this test stored (or the one in flight at a kill), whole and byte-identical; none is missing. */
  private void checkVersions(Path inFlight) throws Exception {
    MiniGrid.Cli list = grid.cli("versions", "--app", "ha", "--node", "n", "--json");
    assertThat(list.exit()).as(list.stderr()).isZero();
    Map<Long, Boolean> listed = new LinkedHashMap<>();
    for (JsonNode v : new ObjectMapper().readTree(list.stdout())) {
      listed.put(v.get("step").asLong(), true);
      long step = v.get("step").asLong();
      Path expected = stored.getOrDefault(step, inFlight);
      assertThat(expected).as("step %d is listed but was never stored", step).isNotNull();
      Path out = root.resolve("fetched-" + step);
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "ha", "--node", "n", "--step", Long.toString(step), "-o", out.toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(Files.mismatch(out, expected)).as("step %d fetched byte-identical", step).isEqualTo(-1L);
      Files.delete(out);
    }
    assertThat(listed.keySet()).as("every committed version is still listed").containsAll(stored.keySet());
  }

  @Test
  void storesSurviveTheLeadersDeathARestartAndAWipedFollower() throws Exception {
    // a client token made through the group's API: every member learns it
    MiniGrid.Cli made = grid.trackerCommand("token", "create", "--tracker", group.urls(), "--token-file", grid.tokenFile().toString(),
        "--role", "client", "--apps", "ha", "--read-only");
    assertThat(made.exit()).as(made.stderr()).isZero();
    Path clientToken = Files.writeString(root.resolve("client.token"), made.stdout());
    store(image("v1", 6, 1));
    store(image("v2", 6, 2));

    // a store in flight while the leader is SIGKILLed: it either commits whole or not at all
    int leader = group.awaitLeader(Duration.ofSeconds(10));
    Path big = image("big", 48, 3);
    MiniGrid.Node inFlight = grid.startCli("inflight", Map.of(), "store", big.toString(), "--app", "ha", "--node", "n");
    group.member(leader).kill();
    long killed = System.nanoTime();
    int next = group.awaitLeader(Duration.ofSeconds(30));
    double failover = (System.nanoTime() - killed) / 1e9;
    System.out.printf("tracker group: %s killed, %s serving the grid %.2f s later%n", TrackerGroup.id(leader), TrackerGroup.id(next),
        failover);
    assertThat(next).isNotEqualTo(leader);
    assertThat(inFlight.process().waitFor(3, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
    System.out.println("store in flight at the kill exited " + inFlight.process().exitValue() + ": " + inFlight.stderr().strip());
    checkVersions(big);

    // stores go on under the new leader
    store(image("v3", 4, 4));

    // the killed member restarts and catches up by the log
    group.startMember(leader);
    long target = group.applied(next);
    MiniGrid.await("the restarted member to catch up", Duration.ofSeconds(60), () -> group.applied(leader) >= target);

    // a follower's disk is wiped once the log it would need is purged: it catches up from a snapshot
    int wiped = (next + 1) % 3 == leader ? (next + 2) % 3 : (next + 1) % 3;
    MiniGrid.await("the leader to purge the log's first entries", Duration.ofSeconds(90), () -> group.purged(next));
    group.member(wiped).kill();
    org.cairn.core.util.FileTrees.delete(group.data(wiped));
    store(image("v4", 4, 5));
    group.startMember(wiped);
    long target2 = group.applied(next);
    MiniGrid.await("the wiped member to catch up", Duration.ofSeconds(60), () -> group.applied(wiped) >= target2);
    assertThat(group.member(wiped).stderr()).contains("restored the store from the group's snapshot");
    for (String shared : new String[] {"dataplane.key", "ticket.key", "catalog.key"}) {
      assertThat(group.data(wiped).resolve(shared)).as("the snapshot carried %s", shared).hasSameBinaryContentAs(group.data(next).resolve(shared));
    }

    // the leader dies again: whoever leads now (the wiped or the restarted member) serves every version
    group.member(next).kill();
    int third = group.awaitLeader(Duration.ofSeconds(30));
    assertThat(third).isIn(leader, wiped);
    checkVersions(big);
    MiniGrid.Cli asClient = grid.cliAs(clientToken, "versions", "--app", "ha", "--node", "n");
    assertThat(asClient.exit()).as("the token made under the first leader works under the third: %s", asClient.stderr()).isZero();
    assertThat(grid.cliAs(clientToken, "rm", "--app", "ha", "--node", "n", "--step", "1").exit()).as("read-only").isNotZero();
    store(image("v5", 4, 6));
    group.startMember(next);
    checkVersions(big);
  }

  @Test
  void aLeaderWithoutAMajorityCommitsNothing() throws Exception {
    store(image("v1", 4, 11));
    int leader = group.awaitLeader(Duration.ofSeconds(10));
    int[] others = {(leader + 1) % 3, (leader + 2) % 3};
    for (int o : others) {
      group.member(o).kill();
    }
    // the leader is now cut off from the majority: a store cannot commit
    Path lost = image("lost", 4, 12);
    // it would retry the commit for 30 s by default (a tracker restart); the answer is the same after 5
    MiniGrid.Cli store = grid.cli("store", lost.toString(), "--app", "ha", "--node", "n", "--commit-timeout", "5s");
    assertThat(store.exit()).as("a store with only a minority of trackers up fails: %s", store.stdout()).isNotZero();
    // the majority side comes back without it and elects a leader: the store never happened
    group.member(leader).kill();
    for (int o : others) {
      group.startMember(o);
    }
    int majority = group.awaitLeader(Duration.ofSeconds(60));
    assertThat(majority).isIn(others[0], others[1]);
    checkVersions(null);
    // the old leader rejoins as a follower; its uncommitted entry is gone for good
    group.startMember(leader);
    long target = group.applied(majority);
    MiniGrid.await("the old leader to catch up", Duration.ofSeconds(60), () -> group.applied(leader) >= target);
    checkVersions(null);
    assertThat(grid.cli("versions", "--app", "ha", "--node", "n", "--json").stdout()).doesNotContain("\"step\":2");
  }
}
