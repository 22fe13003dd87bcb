package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default path is the fast path: plain {@code client-cli/target/cairn} commands, with no agent
 * named, run in their own process when none is there and start this user's agent for the commands
 * after them ({@code XDG_RUNTIME_DIR} places its socket); it serves every command after, two at once,
 * stops when asked, when idle, or when its jar is replaced; {@code --no-agent} and
 * {@code CAIRN_AGENT=off} keep a command in its process; an agent killed mid-store leaves no half version.
 */
class SelfStartIT {
  @TempDir
  Path root;

  private MiniGrid grid;
  private Path runtime;
  private final List<Long> agents = new ArrayList<>();

  @BeforeEach
  void startGrid() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    grid.startPeersRunning(6);
    runtime = Files.createDirectories(root.resolve("xdg"));
    Files.setPosixFilePermissions(runtime, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
  }

  @AfterEach
  void stopAll() throws Exception {
    // the agent a command started after the last status (one that ran in its own process after a killed agent)
    grid.command(List.of("sh", MiniGrid.jar("client-cli", "cairn").toString(), "agent", "stop"), job(Map.of()));
    for (long pid : agents) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    grid.close();
  }

  private Path socket() {
    return runtime.resolve("cairn").resolve("agent.sock");
  }

  /** The environment of a job on this host: its own runtime directory, agents not turned off (the suite turns them off). */
  private Map<String, String> job(Map<String, String> more) {
    Map<String, String> env = new HashMap<>(Map.of("XDG_RUNTIME_DIR", runtime.toString(), "CAIRN_AGENT", "on"));
    env.putAll(more);
    return env;
  }

  /** {@code sh LAUNCHER --tracker URL --token-file F ARGS...} as a job script runs it. */
  private MiniGrid.Cli cairn(Path launcher, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("sh", launcher.toString(), "--tracker", grid.trackerUrl(), "--token-file",
        grid.tokenFile().toString()));
    cmd.addAll(List.of(args));
    return grid.command(cmd, job(env));
  }

  private MiniGrid.Cli cairn(String... args) throws Exception {
    return cairn(MiniGrid.jar("client-cli", "cairn"), Map.of(), args);
  }

  /** The running agent's status, or null when none answers at the socket. */
  private JsonNode status(Path launcher) throws Exception {
    MiniGrid.Cli s = grid.command(List.of("sh", launcher.toString(), "agent", "status", "--json"), job(Map.of()));
    assertThat(s.exit()).as(s.stdout() + s.stderr()).isIn(0, 3);
    JsonNode json = s.json();
    if (s.exit() == 3) {
      assertThat(json.get("running").asBoolean()).isFalse();
      return null;
    }
    agents.add(json.get("pid").asLong());
    return json;
  }

  private JsonNode awaitAgent(Path launcher) throws Exception {
    MiniGrid.await("an agent at " + socket(), Duration.ofSeconds(90), () -> Files.exists(socket()) && status(launcher) != null);
    return status(launcher);
  }

  private Path image(String name, int seed, int size) throws Exception {
    return Files.write(root.resolve(name), MemoryImages.image(seed, size));
  }

  @Test
  void aPlainStoreStartsTheUsersAgentWhichServesTheCommandsAfterItUntilStopped() throws Exception {
    Path launcher = MiniGrid.jar("client-cli", "cairn");
    Path[] images = new Path[5];
    for (int i = 0; i < 5; i++) {
      images[i] = image("ckpt" + i, 640 + i, 6 << 20);
    }
    assertThat(status(launcher)).as("no agent before the first command").isNull();
    MiniGrid.Cli first = cairn("store", images[0].toString(), "--app", "heat", "--node", "r0");
    assertThat(first.exit()).as(first.stderr()).isZero();
    assertThat(first.stderr()).as("the user named no agent: no notice").doesNotContain("no agent");
    assertThat(status(launcher)).as("an agent runs once the first command has returned (warming up, or serving)").isNotNull();
    JsonNode agent = awaitAgent(launcher);
    assertThat(agent.get("served").asLong()).isZero();
    assertThat(Files.getPosixFilePermissions(socket().getParent())).as("the socket's directory is private")
        .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));

    for (int i = 1; i < 5; i++) {
      MiniGrid.Cli store = cairn("store", images[i].toString(), "--app", "heat", "--node", "r0");
      assertThat(store.exit()).as(store.stderr()).isZero();
    }
    // two jobs at once, each its own app
    CompletableFuture<MiniGrid.Cli> a = CompletableFuture.supplyAsync(() -> call(() -> cairn("store", images[0].toString(), "--app", "a", "--node", "n")));
    CompletableFuture<MiniGrid.Cli> b = CompletableFuture.supplyAsync(() -> call(() -> cairn("store", images[1].toString(), "--app", "b", "--node", "n")));
    assertThat(a.get().exit()).as(a.get().stderr()).isZero();
    assertThat(b.get().exit()).as(b.get().stderr()).isZero();
    MiniGrid.Cli fetch = cairn("fetch", "--app", "heat", "--node", "r0", "-o", root.resolve("out").toString());
    assertThat(fetch.exit()).as(fetch.stderr()).isZero();
    assertThat(Files.readAllBytes(root.resolve("out"))).isEqualTo(Files.readAllBytes(images[4]));
    JsonNode after = status(launcher);
    assertThat(after.get("pid").asLong()).as("the same agent").isEqualTo(agent.get("pid").asLong());
    assertThat(after.get("served").asLong()).as("stores 2-5, the two jobs and the fetch").isEqualTo(7);
    assertThat(after.get("grids").toString()).contains(grid.trackerUrl());
    assertThat(grid.cli("versions", "--app", "heat", "--node", "r0", "--json").json()).hasSize(5);

    MiniGrid.Cli stop = grid.command(List.of("sh", launcher.toString(), "agent", "stop"), job(Map.of()));
    assertThat(stop.exit()).as(stop.stderr()).isZero();
    assertThat(stop.stdout()).contains("stopping the agent");
    long pid = agent.get("pid").asLong();
    MiniGrid.await("the agent's exit", Duration.ofSeconds(30), () -> ProcessHandle.of(pid).isEmpty() || !ProcessHandle.of(pid).get().isAlive());
    assertThat(socket()).doesNotExist();
    assertThat(status(launcher)).isNull();
    MiniGrid.Cli again = grid.command(List.of("sh", launcher.toString(), "agent", "stop"), job(Map.of()));
    assertThat(again.exit()).isZero();
    assertThat(again.stdout()).contains("no agent running");

    // kept in their own process: no agent is started. A command starts one (and makes its log) before it exits, so a
    // runtime directory of their own still without the agent's files once they have returned shows none was started.
    Path fresh = Files.createDirectories(root.resolve("xdg-off"));
    Map<String, String> off = Map.of("XDG_RUNTIME_DIR", fresh.toString());
    assertThat(cairn(launcher, off, "--no-agent", "versions", "--app", "heat", "--node", "r0").exit()).isZero();
    assertThat(cairn(launcher, Map.of("XDG_RUNTIME_DIR", fresh.toString(), "CAIRN_AGENT", "off"), "versions", "--app", "heat", "--node", "r0")
        .exit()).isZero();
    assertThat(cairn(launcher, Map.of("XDG_RUNTIME_DIR", fresh.toString(), "CAIRN_AGENT", "off"), "--json", "store", images[0].toString(),
        "--app", "heat", "--node", "r1").exit()).isZero();
    Path dir = fresh.resolve("cairn");
    assertThat(dir.resolve("agent.sock.log")).as("--no-agent and CAIRN_AGENT=off start none").doesNotExist();
    assertThat(dir.resolve("agent.sock.lock")).doesNotExist();
    assertThat(dir.resolve("agent.sock")).doesNotExist();
  }

  @Test
  void aNewBuildEndsTheAgentAndTheNextCommandStartsAFreshOne() throws Exception {
    Path install = Files.createDirectories(root.resolve("install"));
    Path jar = install.resolve("cairn.jar");
    Files.copy(MiniGrid.jar("client-cli", "cairn.jar"), jar);
    Path launcher = Files.copy(MiniGrid.jar("client-cli", "cairn"), install.resolve("cairn"));
    Path file = image("ckpt", 77, 3 << 20);
    assertThat(cairn(launcher, Map.of(), "store", file.toString(), "--app", "job", "--node", "n").exit()).isZero();
    long first = awaitAgent(launcher).get("pid").asLong();

    Path next = install.resolve("cairn.jar.new");
    Files.copy(MiniGrid.jar("client-cli", "cairn.jar"), next);
    Files.move(next, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE); // as a build replaces it
    MiniGrid.await("the old agent's exit", Duration.ofSeconds(30), () -> ProcessHandle.of(first).isEmpty() || !ProcessHandle.of(first).get().isAlive());
    assertThat(Files.readString(socket().resolveSibling("agent.sock.log"))).contains("was replaced");

    MiniGrid.Cli store = cairn(launcher, Map.of(), "store", file.toString(), "--app", "job", "--node", "n");
    assertThat(store.exit()).as(store.stderr()).isZero();
    long second = awaitAgent(launcher).get("pid").asLong();
    assertThat(second).isNotEqualTo(first);
  }

  @Test
  void anIdleAgentExitsAndOneKilledMidStoreLeavesNoHalfVersion() throws Exception {
    Path launcher = MiniGrid.jar("client-cli", "cairn");
    // an agent started by hand with a short idle time exits by itself
    Path own = root.resolve("own").resolve("agent.sock");
    Files.createDirectories(own.getParent());
    List<String> cmd = List.of("sh", launcher.toString(), "--tracker", grid.trackerUrl(), "--token-file", grid.tokenFile().toString(), "agent",
        "--socket", own.toString(), "--idle-exit", "3s", "--warmup", "0");
    MiniGrid.Cli idle = grid.command(cmd, job(Map.of("CAIRN_JAVA_OPTS", "-Dcairn.agent.watchMillis=500")));
    assertThat(idle.exit()).as(idle.stderr()).isZero();
    assertThat(idle.stdout()).contains("idle for 3s").contains("cairn agent stopped");

    Path file = image("big", 91, 48 << 20);
    assertThat(cairn("versions", "--app", "k", "--node", "n").exit()).isZero(); // starts the agent
    long pid = awaitAgent(launcher).get("pid").asLong();
    CompletableFuture<MiniGrid.Cli> store = CompletableFuture.supplyAsync(() -> call(() -> cairn("store", file.toString(), "--app", "k",
        "--node", "n")));
    MiniGrid.await("the store running in the agent", Duration.ofSeconds(60),
        () -> store.isDone() || status(launcher).get("commandsRunning").asInt() >= 2);
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    MiniGrid.Cli done = store.get();
    if (done.exit() == 0) {
      // nothing had reached its output: it ran again in its own process
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "k", "--node", "n", "-o", root.resolve("k.out").toString());
      assertThat(fetch.exit()).as(fetch.stderr()).isZero();
      assertThat(Files.readAllBytes(root.resolve("k.out"))).isEqualTo(Files.readAllBytes(file));
    } else {
      assertThat(done.stderr()).contains("the agent went away mid-command");
    }
    for (JsonNode v : grid.cli("versions", "--app", "k", "--node", "n", "--json").json()) {
      MiniGrid.Cli fetch = grid.cli("fetch", "--app", "k", "--node", "n", "--step", v.get("step").asText(), "-o",
          root.resolve("v" + v.get("step").asText()).toString());
      assertThat(fetch.exit()).as("every listed version is whole: " + fetch.stderr()).isZero();
      assertThat(Files.readAllBytes(root.resolve("v" + v.get("step").asText()))).isEqualTo(Files.readAllBytes(file));
    }
  }

  /**
   * Two users on one host: each gets an agent of its own, and neither's commands reach the other's (its socket is in
   * a 0700 directory, and the agent checks the peer's uid). Needs root, to run commands as nobody, and a checkout
   * nobody can read (skipped otherwise).
   */
  @Test
  void anotherUsersCommandsGetTheirOwnAgentAndCannotReachThisOne() throws Exception {
    Path launcher = MiniGrid.jar("client-cli", "cairn");
    Path setpriv = Path.of("/usr/bin/setpriv");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(setpriv) && "root".equals(System.getProperty("user.name")),
        "runs a second user's commands through setpriv as root");
    org.junit.jupiter.api.Assumptions.assumeTrue(asNobody(List.of("test", "-r", MiniGrid.jar("client-cli", "cairn.jar").toString()),
        Map.of()).exit() == 0, "the build is readable by nobody");
    assertThat(cairn("versions", "--app", "x", "--node", "n").exit()).isZero();
    JsonNode mine = awaitAgent(launcher);

    Path other = Files.createTempDirectory(Path.of("/tmp"), "cairn-nobody");
    try {
      Files.setPosixFilePermissions(other, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      Path token = Files.copy(grid.tokenFile(), other.resolve("token"));
      Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
      for (String d : List.of("xdg", "keys", "bases", "home")) {
        Files.createDirectories(other.resolve(d));
      }
      run(List.of("chown", "-R", "65534:65534", other.resolve("xdg").toString(), other.resolve("keys").toString(),
          other.resolve("bases").toString(), other.resolve("home").toString()));
      Files.setPosixFilePermissions(other.resolve("xdg"), java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
      Map<String, String> theirs = Map.of("XDG_RUNTIME_DIR", other.resolve("xdg").toString(), "CAIRN_KEY_DIR", other.resolve("keys").toString(),
          "CAIRN_BASE_CACHE", other.resolve("bases").toString(), "HOME", other.resolve("home").toString(), "CAIRN_AGENT", "on");
      List<String> versions = List.of("sh", launcher.toString(), "--tracker", grid.trackerUrl(), "--token-file", token.toString(),
          "versions", "--app", "x", "--node", "n");

      // this user's socket, named outright: refused (the directory is 0700), so the command runs in nobody's process
      Map<String, String> named = new HashMap<>(theirs);
      named.put("CAIRN_AGENT_SOCKET", socket().toString());
      MiniGrid.Cli refused = asNobody(versions, named);
      assertThat(refused.exit()).as(refused.stderr()).isZero();
      assertThat(refused.stderr()).contains("no agent at " + socket());

      MiniGrid.Cli own = asNobody(versions, theirs);
      assertThat(own.exit()).as(own.stderr()).isZero();
      Path theirSocket = other.resolve("xdg").resolve("cairn").resolve("agent.sock");
      MiniGrid.await("nobody's own agent", Duration.ofSeconds(90), () -> Files.exists(theirSocket));
      MiniGrid.Cli status = asNobody(List.of("sh", launcher.toString(), "agent", "status", "--json"), theirs);
      assertThat(status.exit()).as(status.stderr()).isZero();
      long theirPid = status.json().get("pid").asLong();
      agents.add(theirPid);
      assertThat(theirPid).isNotEqualTo(mine.get("pid").asLong());
      assertThat(ProcessHandle.of(theirPid).flatMap(h -> h.info().user())).contains("nobody");
      assertThat(status(launcher).get("served").asLong()).as("nobody's commands never reached this user's agent").isZero();
      asNobody(List.of("sh", launcher.toString(), "agent", "stop"), theirs);
    } finally {
      run(List.of("rm", "-rf", other.toString()));
    }
  }

  private MiniGrid.Cli asNobody(List<String> cmd, Map<String, String> env) throws Exception {
    List<String> all = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"));
    all.addAll(cmd);
    return grid.command(all, env);
  }

  private static void run(List<String> cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).inheritIO().start();
    assertThat(p.waitFor()).as(String.join(" ", cmd)).isZero();
  }

  private interface Call<T> {
    T run() throws Exception;
  }

  private static <T> T call(Call<T> c) {
    try {
      return c.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
