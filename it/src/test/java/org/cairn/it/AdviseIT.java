package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn advise} through the packaged CLI against a tracker process (one-second history slots): a compute host
 * heartbeats up and is interrupted three times, the app's node stores twice from this host (each store's pause noted
 * in the host's ledger), and the advice gives the mean time to interruption and checkpoint cost the history and the
 * ledger hold, and Daly's interval from them; a client of another app is refused.
 */
class AdviseIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path root;

  @Test
  void theAdviceFollowsTheHostsInterruptionsAndTheNodesStores() throws Exception {
    try (MiniGrid grid = new MiniGrid(root, Duration.ofMillis(500))) {
      grid.startTrackerWithRoles();
      Path donor = Files.writeString(root.resolve("donor.token"), create(grid, "--role", "donor") + "\n");
      Path heat = Files.writeString(root.resolve("heat.token"), create(grid, "--role", "client", "--apps", "heat") + "\n");
      Path other = Files.writeString(root.resolve("other.token"), create(grid, "--role", "client", "--apps", "other") + "\n");
      grid.startPeer("p0", "--token-file", donor.toString());
      String bearer = org.cairn.core.security.GridToken.readFile(heat).bearerValue();

      interruptThrice(grid, bearer);
      String seen = states(grid);
      long ups = seen.chars().filter(c -> c == 'U').count();

      Path cache = Files.createDirectories(root.resolve("cache"));
      Path image = root.resolve("image");
      Files.write(image, seeded(2 << 20));
      for (int i = 0; i < 2; i++) {
        MiniGrid.Cli store = cairn(grid, heat, cache, "store", image.toString(), "--app", "heat", "--node", "n1", "--redundancy",
            "replicate:1");
        assertThat(store.exit()).as(store.stderr()).isZero();
      }
      List<Double> pauses = new ArrayList<>();
      for (String line : Files.readAllLines(cache.resolve("cairn/costs/heat/n1.jsonl"))) {
        pauses.add(JSON.readTree(line).path("pauseMillis").asLong() / 1000.0);
      }
      assertThat(pauses).hasSize(2);

      MiniGrid.Cli advise = cairn(grid, heat, cache, "advise", "--app", "heat", "--node", "n1", "--client", "jobhost", "--window", "1h",
          "--json");
      assertThat(advise.exit()).as(advise.stderr()).isZero();
      JsonNode a = advise.json();
      double m = ups / 3.0;
      double c = (pauses.get(0) + pauses.get(1)) / 2;
      assertThat(a.path("interruptions").asInt()).isEqualTo(3);
      assertThat(a.path("mtbfSeconds").asDouble()).isCloseTo(m, within(1e-3));
      assertThat(a.path("checkpointSeconds").asDouble()).isCloseTo(c, within(1e-3));
      assertThat(a.path("checkpointSamples").asInt()).isEqualTo(2);
      assertThat(a.path("latestStep").asLong()).isEqualTo(2);
      double expected = c >= 2 * m ? m : Math.sqrt(2 * c * m) * (1 + Math.sqrt(c / (2 * m)) / 3 + c / (2 * m) / 9) - c;
      assertThat(a.path("formula").asText()).isEqualTo("daly"); // C is seconds against a mean of seconds
      assertThat(a.path("intervalSeconds").asLong()).isEqualTo(Math.max(1, Math.round(expected)));
      assertThat(a.path("confidence").asText()).isEqualTo("low");

      MiniGrid.Cli refused = cairn(grid, other, cache, "advise", "--app", "heat", "--node", "n1", "--client", "jobhost", "--json");
      assertThat(refused.exit()).isEqualTo(1);
      assertThat(refused.stdout()).isEmpty();
      assertThat(refused.stderr()).contains("may not touch app heat");
    }
  }

  @Test
  void aDmtcpJobWithIntervalAutoCheckpointsOnTheAdviceAndNotesWhatEachCost() throws Exception {
    Path bin = Dmtcp.bin();
    Path program = Files.writeString(root.resolve("counter.py"), Dmtcp.COUNTER);
    Path cache = Files.createDirectories(root.resolve("cache"));
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(root.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTracker();
      grid.startPeer("p0");
      interruptThrice(grid, grid.token()); // a mean time to interruption of seconds: the advice is seconds too
      MiniGrid.Node launch = grid.startCli("launch", Map.of("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"),
          "CAIRN_CLIENT_ID", "jobhost", "XDG_CACHE_HOME", cache.toString()), "dmtcp", "launch", "--app", "sim", "--node", "n0",
          "--interval", "auto", "--redundancy", "replicate:1", "--encryption", "none", "--ckpt-dir", root.resolve("ckpt").toString(),
          "--", Dmtcp.python(), program.toString());
      try {
        Path ledger = cache.resolve("cairn/costs/sim/n0.jsonl");
        MiniGrid.await("two checkpoints driven by the advice, noted and stored", Duration.ofMinutes(2),
            () -> Files.exists(ledger) && Files.readAllLines(ledger).size() >= 2 && versions(grid) >= 2, () -> launch.stderr());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("checkpointing every (\\d+) s").matcher(launch.stderr());
        assertThat(m.find()).as(launch.stderr()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("the advised interval, not DMTCP jobs' 10 minutes").isLessThan(60);
        for (String line : Files.readAllLines(ledger)) {
          JsonNode sample = JSON.readTree(line);
          assertThat(sample.path("source").asText()).isEqualTo("dmtcp");
          assertThat(sample.path("pauseMillis").asLong()).isPositive().isLessThan(60_000);
        }
      } finally {
        launch.process().descendants().forEach(ProcessHandle::destroyForcibly);
        launch.process().destroyForcibly();
      }
    }
  }

  /** The compute host {@code jobhost} up for three slots or more, then down, three times. */
  private static void interruptThrice(MiniGrid grid, String bearer) throws Exception {
    for (int cycle = 1; cycle <= 3; cycle++) {
      int n = cycle;
      MiniGrid.await("up in cycle " + cycle, Duration.ofSeconds(30), () -> {
        beat(grid, bearer, "UP");
        String s = states(grid);
        return s.chars().filter(c -> c == 'U').count() >= 3L * n && s.endsWith("UUU");
      });
      beat(grid, bearer, "DOWN");
      MiniGrid.await("interruption " + cycle, Duration.ofSeconds(30), () -> interruptions(states(grid)) == n && states(grid).endsWith("D"));
    }
  }

  private static int versions(MiniGrid grid) throws Exception {
    MiniGrid.Cli r = grid.cli("versions", "--app", "sim", "--node", "n0", "--json", "--no-agent");
    return r.exit() == 0 ? r.json().size() : 0;
  }

  private static MiniGrid.Cli cairn(MiniGrid grid, Path token, Path cache, String... args) throws Exception {
    List<String> cmd = TestJvm.command(MiniGrid.jar("client-cli", "cairn.jar"));
    cmd.addAll(List.of("--tracker", grid.trackerUrl(), "--token-file", token.toString(), "--no-agent"));
    cmd.addAll(List.of(args));
    return grid.command(cmd, Map.of("XDG_CACHE_HOME", cache.toString()));
  }

  private static void beat(MiniGrid grid, String bearer, String state) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(URI.create(grid.trackerUrl() + "/api/v1/compute/jobhost/heartbeat"))
        .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + bearer).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"" + state + "\"}")).build();
    HttpResponse<String> answer = grid.http().send(r, HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
  }

  /** The host's history over the last hour, one letter per second (U, D, '.' unknown). */
  private static String states(MiniGrid grid) throws Exception {
    return grid.get("/api/v1/compute/jobhost/history?window=1h").json().path("states").asText();
  }

  private static long interruptions(String states) {
    long n = 0;
    char previous = '.';
    for (char c : states.toCharArray()) {
      n += c == 'D' && previous == 'U' ? 1 : 0;
      previous = c == '.' ? previous : c;
    }
    return n;
  }

  private static String create(MiniGrid grid, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("token", "create", "--data", grid.trackerData().toString()));
    all.addAll(List.of(args));
    MiniGrid.Cli r = grid.trackerCommand(all.toArray(String[]::new));
    assertThat(r.exit()).as(r.stderr()).isZero();
    return r.stdout().strip();
  }

  private static byte[] seeded(int size) {
    byte[] b = new byte[size];
    new Random(66).nextBytes(b);
    return b;
  }
}
