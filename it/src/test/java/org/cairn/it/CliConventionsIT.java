package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's conventions as a user meets them (the contract), with the real jar as a new
 * process and a clean environment: one-line errors, no help dumps, CAIRN_TOKEN_FILE, a global --json.
 */
class CliConventionsIT {
  @TempDir
  Path root;

  record Run(int exit, String out, List<String> err) {}

  /** cairn.jar with ARGS, no CAIRN_* in the environment but {@code env}, and a home of its own. */
  private Run cairn(Map<String, String> env, String... args) throws Exception {
    return run(MiniGrid.jar("client-cli", "cairn.jar"), env, args);
  }

  private Run run(Path jar, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Duser.home=" + root.resolve("home"), "-jar", jar.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile())
        .redirectOutput(root.resolve("out").toFile()).redirectError(root.resolve("err").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("CAIRN_"));
    pb.environment().put("CAIRN_AGENT", "off"); // in its own process, as these conventions are about (SelfStartIT: the agent)
    pb.environment().put("CAIRN_KEY_DIR", root.resolve("keys").toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("cairn " + String.join(" ", args) + " finished").isTrue();
    return new Run(p.exitValue(), Files.readString(root.resolve("out")), Files.readAllLines(root.resolve("err")));
  }

  @Test
  void usageAndInputErrors_areOneLine_andWriteNothing() throws Exception {
    Run missing = cairn(Map.of(), "store", "nosuch.img", "--app", "A", "--node", "N");
    assertThat(missing.exit()).isIn(1, 2);
    assertThat(missing.err()).hasSize(1);
    assertThat(missing.err().get(0)).contains("nosuch.img").contains("no such file");

    Run bare = cairn(Map.of(), "store");
    assertThat(bare.exit()).isEqualTo(2);
    assertThat(bare.err()).hasSizeLessThanOrEqualTo(3).anyMatch(l -> l.contains("--app")).noneMatch(l -> l.startsWith("Usage"));

    Path image = Files.write(root.resolve("ckpt.img"), new byte[1000]);
    Run noTracker = cairn(Map.of(), "store", image.toString(), "--app", "A", "--node", "N");
    assertThat(noTracker.exit()).isEqualTo(2);
    assertThat(noTracker.err()).hasSizeLessThanOrEqualTo(3).anyMatch(l -> l.contains("no tracker"));
    assertThat(root.resolve("keys")).as("no app key made by a store that could not run").doesNotExist();

    Run typo = cairn(Map.of(), "store", image.toString(), "--ap", "A", "--node", "N");
    assertThat(typo.exit()).isEqualTo(2);
    assertThat(typo.err()).hasSizeLessThanOrEqualTo(2);
    assertThat(typo.err().get(0)).contains("--ap").contains("did you mean").contains("--app");

    Run dirAsFile = cairn(Map.of(), "store", root.toString(), "--app", "A", "--node", "N");
    assertThat(dirAsFile.exit()).isEqualTo(2);
    assertThat(dirAsFile.err().get(0)).contains("is a directory: store it with --dir");

    // the donor's daemon and the tracker's commands hold to the same: a line and a hint, never the whole help
    Run peer = run(MiniGrid.jar("peer", "cairn-peer.jar"), Map.of(), "--data", root.resolve("p").toString());
    assertThat(peer.exit()).isEqualTo(2);
    assertThat(peer.err()).containsExactly("cairn-peer: missing required settings: --tracker, --token-file, --quota",
        "Try 'cairn-peer --help' for more information.");
    Run recover = run(MiniGrid.jar("tracker", "cairn-tracker.jar"), Map.of(), "recover", "--kit", root.toString());
    assertThat(recover.exit()).isEqualTo(2);
    assertThat(recover.err()).hasSize(2);
    assertThat(recover.err().get(0)).startsWith("cairn-tracker: Missing required options").contains("--from-peers").contains("--data");
  }

  /** A launcher script the build made (peer/target/cairn-peer, ...), run with this JVM as JAVA_HOME. */
  private Run launch(Path script, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(script.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile())
        .redirectOutput(root.resolve("out").toFile()).redirectError(root.resolve("err").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("CAIRN_"));
    pb.environment().put("CAIRN_AGENT", "off"); // the launcher's one-command flags, not a hand-over to a self-started agent
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    Process p = pb.start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as(script + " finished").isTrue();
    return new Run(p.exitValue(), Files.readString(root.resolve("out")), Files.readAllLines(root.resolve("err")));
  }

  /** Whether this JVM takes -XX:-UseCounterDecay (JDK 17 does; later JDKs refuse the option). */
  private static boolean jvmHasCounterDecay() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-XX:-UseCounterDecay", "-version").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertThat(p.waitFor(1, TimeUnit.MINUTES)).as("java -version finished").isTrue();
    return p.exitValue() == 0;
  }

  @Test
  void donorLaunchers_runTheJarsWithThePeersJitAndGcFlags() throws Exception {
    Path peerLauncher = MiniGrid.jar("peer", "cairn-peer.jar").resolveSibling("cairn-peer");
    Run peer = launch(peerLauncher, Map.of("CAIRN_PEER_JAVA_OPTS", "-XX:+PrintCommandLineFlags"), "--data", root.resolve("p").toString());
    assertThat(peer.exit()).isEqualTo(2);
    assertThat(peer.out()).contains("-XX:TieredStopAtLevel=1").contains("-XX:+UseSerialGC");
    assertThat(peer.err()).containsExactly("cairn-peer: missing required settings: --tracker, --token-file, --quota",
        "Try 'cairn-peer --help' for more information.");
    Run donor = launch(MiniGrid.jar("gui", "cairn-donor.jar").resolveSibling("cairn-donor"), Map.of(), "--help");
    assertThat(donor.exit()).as(String.join("\n", donor.err())).isZero();
    assertThat(donor.out()).startsWith("Usage: cairn-donor");
  }

  @Test
  void clientLauncher_runsOneCommandGridCommandsWithTheShortLivedFlags() throws Exception {
    Path launcher = MiniGrid.jar("client-cli", "cairn.jar").resolveSibling("cairn");
    Map<String, String> flags = Map.of("CAIRN_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
    Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    boolean hugePages = Files.isReadable(thp) && !Files.readString(thp).contains("[never]");
    for (String command : List.of("versions", "fetch")) {
      Run r = launch(launcher, flags, command, "--app", "A", "--node", "N");
      assertThat(r.exit()).as(command + ": no tracker").isEqualTo(2);
      assertThat(r.out()).as(command).contains("-XX:+UseSerialGC").contains("-XX:CompileCommandFile=").contains("-XX:CompileThresholdScaling=10");
      assertThat(r.out().contains("-XX:+UseTransparentHugePages")).as(command + " huge pages where the kernel has them").isEqualTo(hugePages);
    }
    Run status = launch(launcher, flags, "status");
    assertThat(status.out()).as("status keeps the JVM's defaults").doesNotContain("-XX:+UseSerialGC").doesNotContain("CompileThresholdScaling")
        .doesNotContain("UseCounterDecay");
    // the resident agent keeps its methods' invocation counts (no decay) where the JVM has the option, and starts where it has not
    Run agent = launch(launcher, flags, "agent", "--socket", root.resolve("agent.sock").toString());
    assertThat(agent.exit()).as("agent: no tracker").isEqualTo(2);
    assertThat(agent.err()).as("agent").anyMatch(l -> l.startsWith("cairn agent: no tracker"));
    assertThat(agent.out().contains("-XX:-UseCounterDecay")).as("agent without counter decay").isEqualTo(jvmHasCounterDecay());
    assertThat(agent.out()).as("agent keeps the JVM's collector").doesNotContain("-XX:+UseSerialGC").doesNotContain("CompileThresholdScaling");
    // a one-command store names its chunks in calls at least 50 ms apart (an agent's stores: the default 20 ms)
    Map<String, String> properties = Map.of("CAIRN_JAVA_OPTS", "-XshowSettings:properties");
    Run store = launch(launcher, properties, "store", root.resolve("none").toString(), "--app", "A", "--node", "N");
    assertThat(store.err()).as("store").anyMatch(l -> l.trim().equals("cairn.store.nameLingerMillis = 50"));
    // zstd-jni's native library from beside the jar (the build takes it out, named by its architecture), not copied to
    // /tmp by each process
    Path zstd = launcher.resolveSibling("cairn-zstd-jni-" + System.getProperty("os.arch") + ".so");
    assertThat(zstd).as("the build's copy of zstd-jni's library").isRegularFile();
    assertThat(store.err()).as("store").anyMatch(l -> l.trim().equals("ZstdNativePath = " + zstd));
    Run fetch = launch(launcher, properties, "fetch", "--app", "A", "--node", "N");
    assertThat(fetch.err()).as("fetch").noneMatch(l -> l.contains("cairn.store.nameLingerMillis"));
  }

  /**
   * The launcher and its files copied to a host of another architecture: the build's zstd library (this machine's) is not
   * named there, so zstd-jni takes the host's own out of the jar instead of failing to load the wrong one.
   */
  @Test
  void clientLauncher_onAnotherArchitecture_leavesZstdToTheJar() throws Exception {
    Path launcher = MiniGrid.jar("client-cli", "cairn.jar").resolveSibling("cairn");
    Path bin = Files.createDirectories(root.resolve("other-arch-bin"));
    Path uname = Files.writeString(bin.resolve("uname"), "#!/bin/sh\necho riscv64\n");
    assertThat(uname.toFile().setExecutable(true)).isTrue();
    Map<String, String> env = Map.of("CAIRN_JAVA_OPTS", "-XshowSettings:properties", "PATH", bin + ":" + System.getenv("PATH"));
    Run store = launch(launcher, env, "store", root.resolve("none").toString(), "--app", "A", "--node", "N");
    assertThat(store.err()).as("store's properties were shown").anyMatch(l -> l.trim().startsWith("java.home = "));
    assertThat(store.err()).as("no zstd library named on another architecture").noneMatch(l -> l.contains("ZstdNativePath"));
  }

  /**
   * A socket file no agent listens on (an agent that died): the native thin client finds no agent and the command runs
   * in the JVM the launcher starts without an agent (its one-command flags), not in the thin path's C1-only JVM.
   */
  @Test
  void clientLauncher_withNoAgentAtTheSocket_runsTheCommandInTheOneCommandJvm() throws Exception {
    Path launcher = MiniGrid.jar("client-cli", "cairn.jar").resolveSibling("cairn");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(launcher.resolveSibling("cairn-thin"))
        || System.getenv("CAIRN_REQUIRE_NATIVE_THIN") != null, "no native thin client built (no C compiler)");
    Path socket = root.resolve("dead.sock");
    try (java.nio.channels.ServerSocketChannel gone = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      gone.bind(java.net.UnixDomainSocketAddress.of(socket));
    }
    assertThat(socket).as("the dead agent's socket file stays").exists();
    Run r = launch(launcher, Map.of("CAIRN_JAVA_OPTS", "-XX:+PrintCommandLineFlags", "CAIRN_AGENT_SOCKET", socket.toString()),
        "versions", "--app", "A", "--node", "N");
    assertThat(r.exit()).as("no tracker: a usage error after the notice").isEqualTo(2);
    assertThat(r.err()).as("the notice").first().asString().startsWith("cairn: no agent at " + socket);
    assertThat(r.out()).contains("-XX:CompileThresholdScaling=10").contains("-XX:+UseSerialGC").doesNotContain("TieredStopAtLevel");
    assertThat(r.out()).as("the thin path's archive not used").contains("cairn.jsa").doesNotContain("cairn-thin.jsa");

    // the JVM's thin path (where no C compiler built the native client) has the launcher run it the same way, and
    // waits for it: two JVMs' flags, the second the one-command JVM's; one notice; that JVM's exit code
    Run viaJava = launch(launcher, Map.of("CAIRN_JAVA_OPTS", "-XX:+PrintCommandLineFlags", "CAIRN_AGENT_SOCKET", socket.toString(),
        "CAIRN_THIN_CLIENT", "java"), "versions", "--app", "A", "--node", "N");
    assertThat(viaJava.exit()).isEqualTo(2);
    List<String> jvms = viaJava.out().lines().filter(l -> l.contains("-XX:")).toList();
    assertThat(jvms).hasSize(2);
    assertThat(jvms.get(0)).contains("-XX:TieredStopAtLevel=1").contains("cairn-thin.jsa");
    assertThat(jvms.get(1)).contains("-XX:CompileThresholdScaling=10").doesNotContain("TieredStopAtLevel");
    assertThat(viaJava.err()).filteredOn(l -> l.startsWith("cairn: no agent at " + socket)).hasSize(1);
  }

  @Test
  void tokenFileFromTheEnvironment_andJsonBeforeOrAfterTheCommand() throws Exception {
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(root.resolve("grid")), Duration.ofSeconds(1))) {
      grid.startTracker();
      grid.startPeer("p1");
      Map<String, String> env = Map.of("CAIRN_TRACKER", grid.trackerUrl(), "CAIRN_TOKEN_FILE", grid.tokenFile().toString());
      Run status = cairn(env, "status");
      assertThat(status.exit()).as(String.join("\n", status.err())).isZero();
      ObjectMapper json = new ObjectMapper();
      for (String[] args : new String[][] {{"--json", "status"}, {"status", "--json"}}) {
        Run r = cairn(env, args);
        assertThat(r.exit()).as(String.join(" ", args) + ": " + r.err()).isZero();
        JsonNode node = json.readTree(r.out());
        assertThat(node.isObject()).as(r.out()).isTrue();
        assertThat(r.out().strip()).as("one object").endsWith("}");
      }
      Run wrong = cairn(Map.of("CAIRN_TRACKER", grid.trackerUrl(), "CAIRN_TOKEN_FILE", root.resolve("nope").toString()), "status");
      assertThat(wrong.exit()).isEqualTo(2);
      assertThat(wrong.err().get(0)).contains("token file").contains("not found");
    }
  }

  @Test
  void ctrlC_saysInterruptedInOneLine_andExits130() throws Exception {
    // a child inherits an ignored SIGINT (a build started in the background by a non-interactive shell), and
    // a JVM that starts with SIGINT ignored keeps ignoring it: Ctrl-C cannot be tested from such a build
    org.junit.jupiter.api.Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored by this build's processes");
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(root.resolve("grid2")), Duration.ofSeconds(1))) {
      grid.startTracker();
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Duser.home=" + root.resolve("home"), "-jar", MiniGrid.jar("client-cli", "cairn.jar").toString(), "--tracker",
          grid.trackerUrl(), "--token-file", grid.tokenFile().toString(), "heartbeat", "--client", "job1", "--interval", "1s"));
      Process p = new ProcessBuilder(cmd).redirectOutput(root.resolve("hb.out").toFile()).redirectError(root.resolve("hb.err").toFile())
          .start();
      try {
        MiniGrid.await("the job reported UP", Duration.ofSeconds(60),
            () -> grid.get("/api/v1/compute").json().path("job1").asBoolean(false), () -> grid.get("/api/v1/compute").text());
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
        assertThat(kill.waitFor()).isZero();
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as("128 + SIGINT").isEqualTo(130);
        List<String> err = Files.readAllLines(root.resolve("hb.err"));
        assertThat(err).contains("cairn: interrupted");
        assertThat(grid.get("/api/v1/compute").json().path("job1").asBoolean(true)).as("the heartbeat said DOWN on its way out")
            .isFalse();
      } finally {
        p.destroyForcibly();
      }
    }
  }

  /** Whether this process ignores SIGINT (bit 2 of SigIgn in /proc/self/status), so that its children do too. */
  private static boolean sigintIgnored() throws java.io.IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 2L) != 0;
      }
    }
    return false;
  }
}
