package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.cairn.core.bench.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #19's resident agent with real processes: thin {@code client-cli/target/cairn} commands
 * handed to {@code cairn agent} over its Unix socket give the in-process results; two jobs store
 * through one agent at once; {@code store --async} then {@code wait}; {@code prefetch}; a killed
 * agent leaves no half version, the CLI falls back with a notice, and a restarted agent finishes
 * the spooled store.
 */
class AgentIT {
  @TempDir
  Path root;

  private MiniGrid grid;
  private Path socket;

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    for (int i = 0; i < 6; i++) {
      grid.startPeer("p" + i);
    }
    MiniGrid.await("6 peers RUNNING", Duration.ofSeconds(30),
        () -> grid.peers().size() == 6 && grid.peers().findValues("state").stream().allMatch(s -> s.asText().equals("RUNNING")));
    socket = root.resolve("run").resolve("agent.sock");
  }

  @AfterEach
  void stopGrid() {
    grid.close();
  }

  private Path image(String name, int seed, int size) throws Exception {
    return Files.write(root.resolve(name), MemoryImages.image(seed, size));
  }

  @Test
  void thinCommandsGiveTheInProcessResults() throws Exception {
    MiniGrid.Node agent = grid.startAgent("agent", socket, "--client", "jobhost-7");
    Path file = image("ckpt.img", 19, 5 * 1024 * 1024);

    MiniGrid.Cli store = grid.viaAgent(socket, "store", file.toString(), "--app", "heat", "--node", "r0", "--json");
    assertThat(store.exit()).as(store.stderr()).isZero();
    assertThat(new ObjectMapper().readTree(store.stdout()).get("step").asLong()).isEqualTo(1);
    assertThat(store.stderr()).doesNotContain("no agent");
    assertThat(Files.readString(root.resolve("agent.err")) + Files.readString(root.resolve("agent.out")))
        .as("the agent ran the store").contains("ran store");
    assertThat(new ObjectMapper().readTree(store.stdout()).has("recordBytes")).as("the record is stored after the answer").isFalse();
    // the agent puts the version's catalog record on the grid after answering: recovery from the peers finds the version
    MiniGrid.await("the version's catalog record on the grid", Duration.ofSeconds(20),
        () -> grid.cli("versions", "--app", "heat", "--node", "r0", "--json").json().get(0).path("recorded").asBoolean());

    // a relative output path means the client's directory; the result equals the in-process fetch
    MiniGrid.Cli thin = grid.viaAgent(socket, "fetch", "--app", "heat", "--node", "r0", "-o", root.resolve("thin.out").toString());
    assertThat(thin.exit()).as(thin.stderr()).isZero();
    MiniGrid.Cli local = grid.cli("fetch", "--app", "heat", "--node", "r0", "-o", root.resolve("local.out").toString());
    assertThat(local.exit()).as(local.stderr()).isZero();
    assertThat(Files.readAllBytes(root.resolve("thin.out"))).isEqualTo(Files.readAllBytes(file));
    assertThat(Files.readAllBytes(root.resolve("local.out"))).isEqualTo(Files.readAllBytes(file));

    // data on standard output streams through the socket
    MiniGrid.Cli toStdout = grid.viaAgentTo(root.resolve("stdout.out"), socket, "fetch", "--app", "heat", "--node", "r0");
    assertThat(toStdout.exit()).as(toStdout.stderr()).isZero();
    assertThat(Files.readAllBytes(root.resolve("stdout.out"))).isEqualTo(Files.readAllBytes(file));

    JsonNode thinVersions = new ObjectMapper().readTree(grid.viaAgent(socket, "versions", "--app", "heat", "--node", "r0", "--json").stdout());
    JsonNode localVersions = new ObjectMapper().readTree(grid.cli("versions", "--app", "heat", "--node", "r0", "--json").stdout());
    assertThat(thinVersions).isEqualTo(localVersions);
    assertThat(thinVersions).hasSize(1);

    // the launcher starts a thin command from cairn-thin.jar: no class of cairn.jar (Netty, Jackson, picocli) is loaded
    Path classes = root.resolve("thin-classes.log");
    MiniGrid.Cli listed = grid.viaAgentWith(java.util.Map.of("CAIRN_JAVA_OPTS", "-Xlog:class+load:file=" + classes), socket,
        "versions", "--app", "heat", "--node", "r0");
    assertThat(listed.exit()).as(listed.stderr()).isZero();
    assertThat(listed.stdout()).contains("redundancy");
    assertThat(Files.readAllLines(classes)).anyMatch(l -> l.contains("org.cairn.cli.agent.AgentClient "))
        .noneMatch(l -> l.contains("/cairn.jar")).noneMatch(l -> l.contains("io.netty.") || l.contains("com.fasterxml."));

    MiniGrid.Cli verify = grid.viaAgent(socket, "verify", "--app", "heat", "--node", "r0", "--read-data");
    assertThat(verify.exit()).as(verify.stdout() + verify.stderr()).isZero();

    // a usage error is the agent's too, with the usual exit code
    MiniGrid.Cli bad = grid.viaAgent(socket, "store", file.toString(), "--app", "heat");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.stderr()).contains("--node");

    // the agent is this compute host's voice: the tracker hears it UP
    MiniGrid.await("compute host jobhost-7 UP", Duration.ofSeconds(20),
        () -> grid.get("/api/v1/compute").json().path("jobhost-7").asBoolean(), () -> grid.get("/api/v1/compute").text());
    assertThat(agent.stop()).isIn(0, 143);
    assertThat(Files.exists(socket)).as("the socket is removed at shutdown").isFalse();
  }

  @Test
  void twoJobsStoreThroughOneAgentAtOnce() throws Exception {
    grid.startAgent("agent", socket);
    Path a = image("a.img", 3, 6 * 1024 * 1024);
    Path b = image("b.img", 4, 6 * 1024 * 1024);
    CompletableFuture<MiniGrid.Cli> ja = CompletableFuture.supplyAsync(() -> call(() -> grid.viaAgent(socket, "store", a.toString(),
        "--app", "lbm", "--node", "a")));
    CompletableFuture<MiniGrid.Cli> jb = CompletableFuture.supplyAsync(() -> call(() -> grid.viaAgent(socket, "store", b.toString(),
        "--app", "lbm", "--node", "b")));
    assertThat(ja.get().exit()).as(ja.get().stderr()).isZero();
    assertThat(jb.get().exit()).as(jb.get().stderr()).isZero();
    for (String n : new String[] {"a", "b"}) {
      Path out = root.resolve(n + ".out");
      MiniGrid.Cli f = grid.viaAgent(socket, "fetch", "--app", "lbm", "--node", n, "-o", out.toString());
      assertThat(f.exit()).as(f.stderr()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(n.equals("a") ? a : b));
    }
  }

  @Test
  void asyncStoreThenWaitThenPrefetch() throws Exception {
    grid.startAgent("agent", socket);
    Path file = image("ckpt.img", 23, 8 * 1024 * 1024);
    byte[] bytes = Files.readAllBytes(file);
    MiniGrid.Cli queued = grid.viaAgent(socket, "store", file.toString(), "--app", "md", "--node", "n0", "--async");
    assertThat(queued.exit()).as(queued.stderr()).isZero();
    assertThat(queued.stdout()).contains("queued md.n0");
    Files.delete(file); // the job may drop its image at once: the agent holds a private copy

    MiniGrid.Cli waited = grid.viaAgent(socket, "wait", "--app", "md", "--node", "n0");
    assertThat(waited.exit()).as(waited.stderr()).isZero();
    assertThat(waited.stdout()).contains("committed md.n0.1");
    assertThat(grid.viaAgent(socket, "wait", "--app", "md", "--node", "n0", "--step", "1").exit()).isZero();
    MiniGrid.Cli missing = grid.viaAgent(socket, "wait", "--app", "md", "--node", "n0", "--step", "9");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.stderr()).contains("no committed step 9");
    try (var spooled = Files.list(Path.of(socket + ".spool"))) {
      assertThat(spooled.toList()).as("a committed store leaves nothing spooled").isEmpty();
    }

    MiniGrid.Cli pre = grid.viaAgent(socket, "prefetch", "--app", "md", "--node", "n0", "--dir", root.resolve("local").toString());
    assertThat(pre.exit()).as(pre.stderr()).isZero();
    assertThat(Files.readAllBytes(root.resolve("local").resolve("md.n0.1"))).isEqualTo(bytes);
    // without an agent, prefetch runs in this process the same way
    MiniGrid.Cli local = grid.cli("prefetch", "--app", "md", "--node", "n0", "--dir", root.resolve("local2").toString());
    assertThat(local.exit()).as(local.stderr()).isZero();
    assertThat(Files.readAllBytes(root.resolve("local2").resolve("md.n0.1"))).isEqualTo(bytes);

    // --json: the queued answer is one JSON object a job script can read; wait then finds that step committed
    Path next = image("ckpt2.img", 24, 4 * 1024 * 1024);
    MiniGrid.Cli queuedJson = grid.viaAgent(socket, "store", next.toString(), "--app", "md", "--node", "n0", "--async", "--json");
    assertThat(queuedJson.exit()).as(queuedJson.stderr()).isZero();
    JsonNode answer = new ObjectMapper().readTree(queuedJson.stdout());
    assertThat(answer.get("app").asText()).isEqualTo("md");
    assertThat(answer.get("node").asText()).isEqualTo("n0");
    assertThat(answer.get("queued").asText()).isNotBlank();
    assertThat(answer.get("seconds").isNumber()).as(queuedJson.stdout()).isTrue();
    assertThat(answer.get("seconds").asDouble()).isGreaterThanOrEqualTo(0);
    MiniGrid.Cli waitedJson = grid.viaAgent(socket, "wait", "--app", "md", "--node", "n0", "--json");
    assertThat(waitedJson.exit()).as(waitedJson.stderr()).isZero();
    JsonNode waitedAnswer = new ObjectMapper().readTree(waitedJson.stdout());
    assertThat(waitedAnswer.get("latestStep").asLong()).as(waitedJson.stdout()).isEqualTo(2);
    assertThat(waitedAnswer.get("failed").asInt()).isZero();
    assertThat(waitedAnswer.get("stepCommitted").asBoolean()).isTrue();
  }

  @Test
  void killedAgentLeavesNoHalfVersionAndResumesItsSpool() throws Exception {
    MiniGrid.Node agent = grid.startAgent("agent", socket);
    Path file = image("big.img", 29, 48 * 1024 * 1024);
    byte[] bytes = Files.readAllBytes(file);
    MiniGrid.Cli queued = grid.viaAgent(socket, "store", file.toString(), "--app", "wrf", "--node", "n0", "--async");
    assertThat(queued.exit()).as(queued.stderr()).isZero();
    agent.kill(); // SIGKILL while the background store runs

    // whatever the tracker lists is whole; nothing half-stored is listed
    JsonNode versions = new ObjectMapper().readTree(grid.cli("versions", "--app", "wrf", "--node", "n0", "--json").stdout());
    for (JsonNode v : versions) {
      assertThat(grid.cli("verify", "--app", "wrf", "--node", "n0", "--step", v.get("step").asText()).exit()).isZero();
    }

    // with the agent gone, a thin command says so in one line and runs in its own process
    MiniGrid.Cli fallback = grid.viaAgent(socket, "versions", "--app", "wrf", "--node", "n0");
    // (no grid flags: the fallback finds none, so it fails as a usage error after the notice)
    assertThat(fallback.stderr().lines().findFirst().orElse("")).startsWith("cairn: no agent at " + socket);
    MiniGrid.Cli fallbackStore = grid.cli("--agent", socket.toString(), "store", file.toString(), "--app", "wrf", "--node", "n1");
    assertThat(fallbackStore.exit()).as(fallbackStore.stderr()).isZero();
    assertThat(fallbackStore.stderr()).contains("no agent at");

    // a new agent on the same socket replaces the stale file and finishes the spooled store
    grid.startAgent("agent2", socket);
    MiniGrid.Cli waited = grid.viaAgent(socket, "wait", "--app", "wrf", "--node", "n0");
    assertThat(waited.exit()).as(waited.stderr()).isZero();
    MiniGrid.await("the spooled store committed", Duration.ofSeconds(60), () -> {
      try (var spooled = Files.list(Path.of(socket + ".spool"))) {
        return spooled.findAny().isEmpty();
      }
    });
    MiniGrid.Cli f = grid.viaAgent(socket, "fetch", "--app", "wrf", "--node", "n0", "-o", root.resolve("wrf.out").toString());
    assertThat(f.exit()).as(f.stderr()).isZero();
    assertThat(Files.readAllBytes(root.resolve("wrf.out"))).isEqualTo(bytes);
  }

  private interface Call<T> {
    T call() throws Exception;
  }

  private static <T> T call(Call<T> c) {
    try {
      return c.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
