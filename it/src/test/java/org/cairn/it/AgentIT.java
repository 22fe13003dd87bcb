package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident agent with real processes: thin {@code client-cli/target/cairn} commands
 * handed to {@code cairn agent} over its Unix socket give the in-process results; two jobs store
 * through one agent at once; {@code store --async} then {@code wait}; {@code prefetch}; a killed
 * agent leaves no half version, the CLI falls back with a notice, and a restarted agent finishes
 * the spooled store; a client's {@code -v} gets that command's log without turning the agent's up; the
 * key directory a job sets is the one the agent uses for it.
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
    grid.startPeersRunning(6);
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
    // (the agent logs a command after its answer, which a native thin client may exit before: awaited, not read at once)
    MiniGrid.await("the agent ran the store", Duration.ofSeconds(10),
        () -> java.util.regex.Pattern.compile("ran (--key-dir \\S+ )?store ")
            .matcher(Files.readString(root.resolve("agent.err")) + Files.readString(root.resolve("agent.out"))).find());
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
    // (the JVM's thin path: what runs where the build had no C compiler for the native client, and its fallback)
    Path classes = root.resolve("thin-classes.log");
    MiniGrid.Cli listed = grid.viaAgentWith(java.util.Map.of("CAIRN_THIN_CLIENT", "java", "CAIRN_JAVA_OPTS",
        "-Xlog:class+load:file=" + classes), socket, "versions", "--app", "heat", "--node", "r0");
    assertThat(listed.exit()).as(listed.stderr()).isZero();
    assertThat(listed.stdout()).contains("redundancy");
    assertThat(Files.readAllLines(classes)).anyMatch(l -> l.contains("org.cairn.cli.agent.wire.AgentClient "))
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

  /**
   * The native thin client ({@code client-cli/target/cairn-thin}, built where there is a C compiler: CI requires it)
   * answers as the JVM's thin path does, and runs that path for what it leaves to it.
   */
  @Test
  void nativeThinClientAnswersAsTheJvmsThinPath() throws Exception {
    Path thin = Path.of(System.getProperty("cairn.root", "..")).resolve("client-cli/target/cairn-thin");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(thin) || System.getenv("CAIRN_REQUIRE_NATIVE_THIN") != null,
        "no native thin client (no C compiler when client-cli was built)");
    assertThat(thin).isExecutable();
    grid.startAgent("agent", socket);
    java.util.Map<String, String> jvm = java.util.Map.of("CAIRN_THIN_CLIENT", "java");
    Path file = image("ckpt.img", 31, 3 * 1024 * 1024);
    MiniGrid.Cli stored = grid.viaAgent(socket, "store", file.toString(), "--app", "nat", "--node", "n0", "--json");
    assertThat(stored.exit()).as(stored.stderr()).isZero();
    assertThat(stored.stderr()).doesNotContain("no agent");
    MiniGrid.Cli storedJvm = grid.viaAgentWith(jvm, socket, "store", file.toString(), "--app", "nat", "--node", "n1", "--json");
    assertThat(storedJvm.exit()).as(storedJvm.stderr()).isZero();
    java.util.List<String> fields = new java.util.ArrayList<>();
    new ObjectMapper().readTree(stored.stdout()).fieldNames().forEachRemaining(fields::add);
    java.util.List<String> fieldsJvm = new java.util.ArrayList<>();
    new ObjectMapper().readTree(storedJvm.stdout()).fieldNames().forEachRemaining(fieldsJvm::add);
    assertThat(fields).isEqualTo(fieldsJvm).contains("step", "chunks");
    for (String[] args : new String[][] {
        {"versions", "--app", "nat", "--node", "n0"},
        {"versions", "--app", "nat", "--node", "n0", "--json"},
        {"store", file.toString(), "--app", "nat"}, // a usage error: exit 2 and the same message
        {"versions", "--app", "n\u00e4t", "--node", "n0"}, // not ASCII: the native client leaves it to the JVM's path
        {"wait", "--app", "nat", "--node", "n0", "--step", "7"}}) {
      MiniGrid.Cli a = grid.viaAgent(socket, args);
      MiniGrid.Cli b = grid.viaAgentWith(jvm, socket, args);
      assertThat(a).as(String.join(" ", args)).isEqualTo(b);
    }
    MiniGrid.Cli fetched = grid.viaAgentTo(root.resolve("nat.out"), socket, "fetch", "--app", "nat", "--node", "n0");
    assertThat(fetched.exit()).as(fetched.stderr()).isZero();
    assertThat(Files.readAllBytes(root.resolve("nat.out"))).isEqualTo(Files.readAllBytes(file));

    // a standard output that cannot be written (here a full disk: /dev/full) fails the command the same way on every
    // path, the native client's, the JVM's thin path and a command run in its own process: exit 1, one line
    for (String[] args : new String[][] {{"versions", "--app", "nat", "--node", "n0"}, {"fetch", "--app", "nat", "--node", "n0", "-o", "-"}}) {
      String line = "cairn: " + args[0] + " failed: cannot write standard output (No space left on device)\n";
      for (String way : WAYS) {
        assertThat(fullDisk(way, ">", args)).as(way + " " + args[0]).isEqualTo(new MiniGrid.Cli(1, "", line));
      }
    }
    // a standard error that cannot be written loses only diagnostics (here the new app's key warning): the store's exit
    // code and result stand on every path
    for (String way : WAYS) {
      MiniGrid.Cli run = fullDisk(way, "2>", "store", file.toString(), "--app", "full-err-" + way, "--node", "n0");
      assertThat(run.exit()).as(way + ": " + run.stdout()).isZero();
      assertThat(run.stdout()).as(way).startsWith("stored full-err-" + way + ".n0.1: ");
    }

    // what it leaves to the JVM's path runs FALLBACK with the command's arguments: no agent at the socket, and an
    // argument that is not ASCII with the agent there
    MiniGrid.Cli none = grid.command(java.util.List.of(thin.toString(), root.resolve("none.sock").toString(), "versions", "2",
        "echo", "fallback", "versions", "--app", "a"), java.util.Map.of());
    assertThat(none).isEqualTo(new MiniGrid.Cli(0, "fallback versions --app a\n", ""));
    // (the argument's bytes made by printf: UTF-8 whatever this JVM's locale)
    MiniGrid.Cli wide = grid.command(java.util.List.of("sh", "-c", "exec \"$0\" \"$1\" versions 1 echo versions --app \"$(printf 'n\\303\\244t')\"",
        thin.toString(), socket.toString()), java.util.Map.of());
    assertThat(wide).isEqualTo(new MiniGrid.Cli(0, "versions --app n\u00e4t\n", ""));
    MiniGrid.Cli usage = grid.command(java.util.List.of(thin.toString(), socket.toString(), "versions", "5", "echo"), java.util.Map.of());
    assertThat(usage.exit()).isEqualTo(2);
    assertThat(usage.stderr()).contains("bad fallback count");
  }

  /** The three ways a command runs: the native thin client, the JVM's thin path (both through the agent), its own process. */
  private static final String[] WAYS = {"native", "jvm", "local"};

  /**
   * The launcher {@code client-cli/target/cairn ARGS...} run {@code way} with one stream on /dev/full (every write:
   * ENOSPC): {@code redirect} "&gt;" for standard output, "2&gt;" for standard error.
   */
  private MiniGrid.Cli fullDisk(String way, String redirect, String... args) throws Exception {
    java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("sh", "-c", "exec sh \"$0\" \"$@\" " + redirect + " /dev/full",
        MiniGrid.jar("client-cli", "cairn").toString()));
    java.util.Map<String, String> env = switch (way) {
      case "native" -> java.util.Map.of("CAIRN_AGENT_SOCKET", socket.toString());
      case "jvm" -> java.util.Map.of("CAIRN_AGENT_SOCKET", socket.toString(), "CAIRN_THIN_CLIENT", "java");
      default -> {
        cmd.addAll(java.util.List.of("--tracker", grid.trackerUrl(), "--token-file", grid.tokenFile().toString()));
        yield java.util.Map.of();
      }
    };
    cmd.addAll(java.util.List.of(args));
    return grid.command(cmd, env);
  }

  /**
   * An agent that goes away mid-command (a stand-in that takes the request and closes, or answers one line first):
   * before any output the command runs in the client's own process, after a one-line notice; after some output it
   * fails with exit 1. The same through the native thin client and the JVM's thin path.
   */
  @Test
  void anAgentGoneMidCommand_runsItHereBeforeOutput_andFailsAfter() throws Exception {
    Path file = image("gone.img", 37, 2 * 1024 * 1024);
    Files.createDirectories(socket.getParent());
    for (boolean answersFirst : new boolean[] {false, true}) {
      for (String client : new String[] {"native", "java"}) {
        Files.deleteIfExists(socket);
        try (java.nio.channels.ServerSocketChannel standIn = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
          standIn.bind(java.net.UnixDomainSocketAddress.of(socket));
          Thread server = new Thread(() -> takeAndClose(standIn, answersFirst), "stand-in-agent");
          server.setDaemon(true);
          server.start();
          String node = client + (answersFirst ? "-after" : "-before");
          MiniGrid.Cli run = grid.viaAgentWith(java.util.Map.of("CAIRN_THIN_CLIENT", client), socket, "--tracker", grid.trackerUrl(),
              "--token-file", grid.tokenFile().toString(), "store", file.toString(), "--app", "gone", "--node", node);
          if (answersFirst) {
            assertThat(run.exit()).as(client + ": " + run.stderr()).isEqualTo(1);
            assertThat(run.stdout()).isEqualTo("working\n");
            assertThat(run.stderr()).as(client).contains("cairn: store failed: the agent went away mid-command");
            assertThat(grid.cli("versions", "--app", "gone", "--node", node).stdout()).as("nothing stored").contains("no versions");
          } else {
            assertThat(run.exit()).as(client + ": " + run.stderr()).isZero();
            assertThat(run.stderr()).as(client).contains("cairn: no agent at " + socket).contains("running store in this process");
            MiniGrid.Cli f = grid.cli("fetch", "--app", "gone", "--node", node, "-o", root.resolve(node + ".out").toString());
            assertThat(f.exit()).as(f.stderr()).isZero();
            assertThat(Files.readAllBytes(root.resolve(node + ".out"))).isEqualTo(Files.readAllBytes(file));
          }
        }
      }
    }
  }

  /** A stand-in agent: takes each connection's request, then closes it (after one line of output if {@code answersFirst}). */
  private static void takeAndClose(java.nio.channels.ServerSocketChannel standIn, boolean answersFirst) {
    while (standIn.isOpen()) {
      try (java.nio.channels.SocketChannel ch = standIn.accept()) {
        ch.read(java.nio.ByteBuffer.allocate(64 << 10));
        if (answersFirst) {
          byte[] line = "working\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
          ch.write(java.nio.ByteBuffer.allocate(5 + line.length).put((byte) 1).putInt(line.length).put(line).flip());
        }
      } catch (java.io.IOException e) {
        return; // closed by the test
      }
    }
  }

  @Test
  void aVerboseClientGetsItsCommandsLog_theAgentKeepsItsLevel() throws Exception {
    grid.startAgent("agent", socket);
    Path file = image("v.img", 23, 3 * 1024 * 1024);
    MiniGrid.Cli verbose = grid.viaAgent(socket, "-v", "store", file.toString(), "--app", "loud", "--node", "n");
    assertThat(verbose.exit()).as(verbose.stderr()).isZero();
    assertThat(verbose.stderr()).as("the store's own lines, on the client's stderr").contains("DEBUG", "store loud.n: placement and probes");
    MiniGrid.Cli quiet = grid.viaAgent(socket, "store", file.toString(), "--app", "quiet", "--node", "n");
    assertThat(quiet.exit()).as(quiet.stderr()).isZero();
    assertThat(quiet.stderr()).doesNotContain("DEBUG");
    // --node=vm1 has a v but asks for nothing verbose (the launcher once took any -...v... for -v)
    MiniGrid.Cli debugEnv = grid.viaAgentWith(java.util.Map.of("CAIRN_LOG_LEVEL", "debug"), socket, "store", file.toString(), "--app",
        "loud", "--node=vm1");
    assertThat(debugEnv.exit()).as(debugEnv.stderr()).isZero();
    assertThat(debugEnv.stderr()).as("the job's CAIRN_LOG_LEVEL, as -v").contains("DEBUG", "store loud.vm1: placement and probes");
    MiniGrid.await("the agent logged both stores", Duration.ofSeconds(10),
        () -> Files.readString(root.resolve("agent.err")).contains("--app quiet"));
    assertThat(Files.readString(root.resolve("agent.err"))).as("the agent's own log, at its own level").doesNotContain("DEBUG");
  }

  @Test
  void theKeyDirectory_isTheClientsWhereItSetsOne_elseTheAgents() throws Exception {
    Path agentKeys = root.resolve("agent-keys");
    grid.startAgent("agent", socket, "--key-dir", agentKeys.toString());
    Path file = image("k.img", 29, 2 * 1024 * 1024);
    Path jobKeys = root.resolve("job-keys");
    MiniGrid.Cli job = grid.viaAgentWith(java.util.Map.of("CAIRN_KEY_DIR", jobKeys.toString()), socket, "store", file.toString(),
        "--app", "mine", "--node", "n");
    assertThat(job.exit()).as(job.stderr()).isZero();
    assertThat(jobKeys.resolve("mine.json")).as("the job's CAIRN_KEY_DIR, as when it stores by itself").exists();
    assertThat(agentKeys.resolve("mine.json")).doesNotExist();
    MiniGrid.Cli unset = grid.viaAgentWith(java.util.Map.of("CAIRN_KEY_DIR", ""), socket, "store", file.toString(), "--app", "theirs",
        "--node", "n");
    assertThat(unset.exit()).as(unset.stderr()).isZero();
    assertThat(agentKeys.resolve("theirs.json")).as("the agent's own --key-dir").exists();
    MiniGrid.Cli jvm = grid.viaAgentWith(java.util.Map.of("CAIRN_KEY_DIR", jobKeys.toString(), "CAIRN_THIN_CLIENT", "java"), socket,
        "store", file.toString(), "--app", "viajvm", "--node", "n");
    assertThat(jvm.exit()).as(jvm.stderr()).isZero();
    assertThat(jobKeys.resolve("viajvm.json")).as("the JVM's thin path too").exists();
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
