package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grid simulator's short run against a real tracker over TLS (docs/simulation.md): 1,000 simulated donors enroll
 * with a donor token, heartbeat at the tracker's default 5 s interval with diurnal owner activity, placement is timed as a
 * client, then a fifth of the donors fail at once, whole labs. Correctness is asserted strictly: every donor
 * registered and was certified, every heartbeat was answered 200, placement found all 1,000 before the failure, the
 * failed donors were all shown DOWN within the tracker's timeout (3 intervals, plus 5 s for the watch's polls on a loaded
 * machine) and not before it less one interval, and
 * no heartbeating donor was ever shown DOWN. Latency is asserted loosely (CI runs on 2 loaded cores): the issue's
 * target is a heartbeat p99 under 50 ms, this test fails only past 1 s; the figures measured here are in the docs.
 */
class GridSimulationIT {
  private static final Duration INTERVAL = Duration.ofSeconds(5);
  private static final int DONORS = 1000;

  @TempDir
  Path root;

  private MiniGrid grid;

  @AfterEach
  void stop() {
    if (grid != null) {
      grid.close();
    }
  }

  @Test
  void aThousandSimulatedDonorsLoseNothingAndTheFailedFifthIsDownWithinTheTimeout() throws Exception {
    grid = new MiniGrid(root, INTERVAL);
    // the default history slot (1 min): placement over 1,000 peers with the tests' 1 s slots outlasts a client's 30 s timeout
    grid.startTracker("--history-slot", "1m");
    Path out = root.resolve("sim.json");
    Process sim = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-jar",
        MiniGrid.jar("sim", "cairn-sim.jar").toString(), "--tracker", grid.trackerUrl(), "--token-file", grid.tokenFile().toString(),
        "--donors", Integer.toString(DONORS), "--minutes", "0.4", "--placements", "50", "--no-outages", "--seed", "7",
        "--tracker-pid", Long.toString(grid.tracker().process().pid()), "--json")
        .redirectOutput(out.toFile()).redirectError(root.resolve("sim.err").toFile()).start();
    assertThat(sim.waitFor(3, TimeUnit.MINUTES)).as("the simulation ends within 3 minutes").isTrue();
    String err = Files.readString(root.resolve("sim.err"));
    assertThat(sim.exitValue()).as("exit status (0: nothing lost); stderr: %s; stdout: %s", err, Files.readString(out)).isZero();
    JsonNode r = new ObjectMapper().readTree(out.toFile());

    JsonNode counts = r.get("counts");
    assertThat(counts.get("registered").asLong()).as("donors registered").isEqualTo(DONORS);
    assertThat(counts.get("certified").asLong()).as("donors whose data-plane key the tracker's CA certified").isEqualTo(DONORS);
    assertThat(counts.get("beatErrors").asLong()).as("heartbeats not answered 200 (first: %s)", counts.get("firstError")).isZero();
    assertThat(counts.get("beatsOk").asLong()).as("heartbeats answered over the run").isGreaterThan(DONORS * 5L);
    assertThat(counts.get("busyBeats").asLong()).as("heartbeats reporting an owner at the keyboard (the churn model)").isPositive();
    assertThat(r.get("tls").asBoolean()).isTrue();
    assertThat(r.get("heartbeatIntervalMs").asLong()).isEqualTo(INTERVAL.toMillis());
    assertThat(r.get("placementCandidates").asInt()).as("donors up when placement was timed").isEqualTo(DONORS);
    assertThat(r.get("placement").get("count").asInt()).isEqualTo(50);

    JsonNode failure = r.get("failure");
    assertThat(failure.get("failed").asInt()).as("a fifth of the donors, whole labs").isBetween(DONORS / 5, DONORS / 5 + 15);
    assertThat(failure.get("markedDown").asInt()).isEqualTo(failure.get("failed").asInt());
    double timeout = 3 * INTERVAL.toSeconds();
    assertThat(failure.get("seconds").asDouble()).as("from the failure to all shown DOWN (the tracker's timeout is %s s)", timeout)
        .isBetween(timeout - INTERVAL.toSeconds() - 0.5, timeout + 5.0);
    assertThat(failure.get("wronglyDown").asInt()).as("heartbeating donors shown DOWN").isZero();

    // loose, on CI's 2 loaded cores: the target is 50 ms
    assertThat(r.get("heartbeatsOnWire").get("p99Ms").asDouble()).as("heartbeat p99 on the wire, ms").isLessThan(1000);
    long timed = r.get("heartbeats").get("count").asLong();
    // the summaries are read one after another while answers still arrive: the counts agree to within a few beats
    assertThat(r.get("laneWait").get("count").asLong()).as("heartbeats whose wait in the simulator was split out")
        .isCloseTo(timed, org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(r.get("schedulerLag").get("count").asLong()).as("heartbeats whose scheduler lag was timed").isGreaterThan(timed / 2);
    assertThat(r.get("placement").get("p99Ms").asDouble()).as("placement p99 over %d candidates, ms", DONORS).isLessThan(1000);
    assertThat(r.get("leaderCpuPercent").asDouble()).as("the leader's CPU, percent of a core").isPositive();
    assertThat(r.get("leaderCpuMsPerHeartbeat").asDouble()).as("the leader's CPU per heartbeat answered, ms").isPositive();
  }
}
