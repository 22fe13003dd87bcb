package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint before the owner takes the desktop back, end to end with real processes: a tracker and peers, this
 * user's agent, a counter under DMTCP launched with {@code cairn dmtcp launch --interval 1h} (so no checkpoint of its
 * own comes during the test), and the donor tray app under Xvfb watching its owner's pointer ({@code --busy-on-input}).
 * The owner moves the pointer (xdotool): the donor's busy rule flips, it tells the agent, the agent tells the job,
 * and the grid holds a committed version of the job within seconds, while the program runs on.
 */
class CheckpointOnNoticeIT {
  @TempDir
  Path dir;

  private final List<Process> processes = new ArrayList<>();
  private final List<MiniGrid.Node> jobs = new ArrayList<>();
  private String display;

  @AfterEach
  void stop() throws InterruptedException {
    killJobs();
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).destroyForcibly();
      processes.get(i).waitFor(10, TimeUnit.SECONDS);
    }
  }

  private void startX() throws Exception {
    MiniGrid.requireTools("the checkpoint-on-notice test needs an X server and xdotool: apt-get install -y xvfb xdotool "
        + "(.ci/run installs them)", Path.of("/usr/bin/Xvfb"), Path.of("/usr/bin/xdotool"));
    int n = 120;
    while (Files.exists(Path.of("/tmp/.X11-unix/X" + n)) || Files.exists(Path.of("/tmp/.X" + n + "-lock"))) {
      n++;
    }
    display = ":" + n;
    processes.add(new ProcessBuilder("Xvfb", display, "-screen", "0", "1024x768x24", "-nolisten", "tcp")
        .redirectErrorStream(true).redirectOutput(dir.resolve("xvfb.log").toFile()).start());
    int d = n;
    MiniGrid.await("Xvfb " + display, Duration.ofSeconds(20), () -> Files.exists(Path.of("/tmp/.X11-unix/X" + d)));
  }

  private Process startDonor(MiniGrid grid, Path socket) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-jar", MiniGrid.jar("gui", "cairn-donor.jar").toString(), "--window", "--tracker", grid.trackerUrl(), "--token-file",
        grid.tokenFile().toString(), "--data", dir.resolve("donor").toString(), "--listen", "127.0.0.1:0", "--quota", "1GiB",
        "--min-free", "0", "--heartbeat-interval", "1s", "--busy-cpu", "1", "--busy-on-input", "30s")
        .redirectOutput(dir.resolve("donor.out").toFile()).redirectError(dir.resolve("donor.err").toFile());
    pb.environment().put("DISPLAY", display);
    pb.environment().put("CAIRN_AGENT_SOCKET", socket.toString());
    Process p = pb.start();
    processes.add(p);
    return p;
  }

  private String read(String name) throws Exception {
    Path p = dir.resolve(name);
    return Files.exists(p) ? Files.readString(p) : "";
  }

  private void xdotool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("xdotool"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("DISPLAY", display);
    Process p = pb.start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as(String.join(" ", cmd)).isTrue();
  }

  private static List<JsonNode> versions(MiniGrid grid) throws Exception {
    MiniGrid.Cli r = grid.cli("versions", "--app", "sim", "--node", "n0", "--json");
    assertThat(r.exit()).as(r.stderr()).isZero();
    List<JsonNode> out = new ArrayList<>();
    r.json().forEach(out::add);
    return out;
  }

  private static int ticks(String out) {
    return (int) out.lines().filter(l -> l.startsWith("tick ")).count();
  }

  @Test
  void theOwnerComingBack_hasTheJobCheckpointedIntoTheGridWithinSeconds() throws Exception {
    Path bin = Dmtcp.bin();
    startX();
    Path program = Files.writeString(dir.resolve("counter.py"), Dmtcp.COUNTER);
    Path socket = dir.resolve("agent.sock");
    // the build runs tests with CAIRN_AGENT=off (no command starts an agent of its own); this job uses the test's agent
    Map<String, String> env = Map.of("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"), "CAIRN_AGENT_SOCKET",
        socket.toString(), "CAIRN_AGENT", "on");
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTracker();
      grid.startPeersRunning(3);
      MiniGrid.Node agent = grid.startAgent("agent", socket, "--warmup", "0", "--heartbeat", "never");
      MiniGrid.Node launch = grid.startCli("launch", env, "dmtcp", "launch", "--app", "sim", "--node", "n0", "--interval", "1h",
          "--redundancy", "code:2+1", "--encryption", "none", "--ckpt-dir", dir.resolve("ckpt").toString(), "--",
          Dmtcp.python(), program.toString());
      jobs.add(launch);
      try {
        ownerComesBack(grid, socket, agent, launch);
      } finally {
        killJobs(); // before the grid's close ends the launch command, whose descendants the program and its coordinator are
      }
    }
  }

  private void killJobs() {
    for (MiniGrid.Node j : jobs) {
      j.process().descendants().forEach(ProcessHandle::destroyForcibly);
    }
  }

  private void ownerComesBack(MiniGrid grid, Path socket, MiniGrid.Node agent, MiniGrid.Node launch) throws Exception {
    MiniGrid.await("the job watching the agent", Duration.ofMinutes(2),
        () -> launch.stderr().contains("watching the agent at " + socket) && ticks(launch.stdout()) >= 3,
        () -> launch.stderr() + "\n--- stdout\n" + launch.stdout() + "\n--- agent\n" + agent.stderr());
    startDonor(grid, socket);
    MiniGrid.await("the donor's window", Duration.ofSeconds(60), () -> read("donor.out").contains("showing a window"),
        () -> read("donor.err"));
    assertThat(versions(grid)).as("an hour's interval: no checkpoint of the job's own yet").isEmpty();

    // the owner comes back: the pointer moves (again each look, in case a move lands before the rules' first look)
    Random random = new Random(66);
    long back = System.nanoTime();
    MiniGrid.await("a committed version of the job in the grid", Duration.ofSeconds(60), () -> {
      xdotool("mousemove", Integer.toString(100 + random.nextInt(800)), Integer.toString(100 + random.nextInt(500)));
      return !versions(grid).isEmpty();
    }, () -> launch.stderr() + "\n--- donor\n" + read("donor.err") + "\n--- agent\n" + agent.stderr());
    double seconds = (System.nanoTime() - back) / 1e9;
    assertThat(seconds).as("checkpointed within seconds of the owner's return, not an interval").isLessThan(30);
    JsonNode v = versions(grid).get(0);
    assertThat(v.get("kind").asText()).isEqualTo("dir");
    assertThat(launch.stderr()).contains("checkpoint notice 1 from the agent (the donor's owner is back: the owner is using the computer)")
        .contains("checkpoint on notice 1 stored as sim.n0." + v.get("step").asLong());
    assertThat(read("donor.err")).contains("told this user's agent at " + socket);
    int before = ticks(launch.stdout());
    MiniGrid.await("the program running on after its checkpoint", Duration.ofSeconds(20), () -> ticks(launch.stdout()) > before + 5);
    assertThat(launch.process().isAlive()).isTrue();

    MiniGrid.Cli status = grid.cli("agent", "status", "--json", "--socket", socket.toString());
    assertThat(status.json().get("watching").asInt()).as(status.stdout()).isEqualTo(1);
    // one notice per minute at most: asked again now, it is not sent, and no new version comes
    MiniGrid.Cli again = grid.cli("agent", "notify-checkpoint", "--json", "--socket", socket.toString());
    assertThat(again.exit()).as(again.stderr()).isZero();
    assertThat(again.json().get("sent").asBoolean()).isFalse();
    assertThat(again.json().get("nextInSeconds").asLong()).isPositive();
    assertThat(versions(grid)).as("no checkpoint for a notice not sent").hasSize(1);
    System.out.printf("checkpoint on notice: a committed version %.1f s after the owner came back%n", seconds);
    Files.writeString(Path.of(System.getProperty("cairn.root", ".."), "it", "target", "checkpoint-on-notice.txt"),
        String.format("%.1f s from the owner's return to a committed version%n", seconds), StandardCharsets.UTF_8);
  }
}
