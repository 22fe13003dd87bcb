package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpointer-native stores with real DMTCP and real processes: a program launched with {@code cairn dmtcp launch}
 * has each checkpoint stored as a version as it completes; the program and two of six peers are
 * killed; {@code cairn dmtcp restart} fetches the latest checkpoint from the grid (code:4+2, two
 * holders gone) and the program continues from the checkpointed state: its next tick follows one
 * it printed before, and every value is the one an uninterrupted run computes.
 */
class DmtcpIT {
  @TempDir
  Path dir;

  /** The cairn dmtcp commands started: their programs are killed after the test whatever its outcome (a job left
   *  running under DMTCP outlives the JVM that launched it). */
  private final List<MiniGrid.Node> jobs = new ArrayList<>();

  @org.junit.jupiter.api.AfterEach
  void killLeftJobs() {
    for (MiniGrid.Node j : jobs) {
      j.process().descendants().forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void aLaunchedJob_killedWithTwoPeers_restartsFromTheGridWhereItsCheckpointLeftOff() throws Exception {
    Path bin = Dmtcp.bin();
    Path program = Files.writeString(dir.resolve("counter.py"), Dmtcp.COUNTER);
    Map<String, String> env = Map.of("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500))) {
      grid.startTracker();
      List<MiniGrid.Node> peers = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        peers.add(grid.startPeer("p" + i));
      }
      Path ckpt = dir.resolve("ckpt");
      MiniGrid.Node launch = grid.startCli("launch", env, "dmtcp", "launch", "--app", "sim", "--node", "n0", "--interval", "2s",
          "--redundancy", "code:4+2", "--encryption", "none", "--ckpt-dir", ckpt.toString(), "--", Dmtcp.python(), program.toString());
      jobs.add(launch);
      MiniGrid.await("two checkpoints stored as versions", Duration.ofMinutes(2), () -> versions(grid).size() >= 2,
          () -> launch.stderr());
      assertThat(Ticks.last(launch.stdout())).as("the program's output is the launch command's").isGreaterThan(0);

      killJob(launch);
      assertThat(launch.process().exitValue()).as("the launch exits with the killed program's status").isEqualTo(137);
      int lastBefore = Ticks.last(launch.stdout());
      JsonNode latest = versions(grid).get(versions(grid).size() - 1);
      assertThat(latest.get("kind").asText()).isEqualTo("dir");
      try (Stream<Path> left = Files.list(ckpt)) {
        assertThat(left.filter(p -> p.getFileName().toString().matches("dmtcp_restart_script_.+_\\d{5,}\\.sh")).count())
            .as("local copies older than the newest committed checkpoint are removed").isEqualTo(1);
      }

      peers.get(0).kill();
      peers.get(1).kill();
      grid.forgetBases(); // restarted as on another host: every chunk from the donors
      MiniGrid.Node restart = grid.startCli("restart", env, "dmtcp", "restart", "--app", "sim", "--node", "n0", "--interval", "1h",
          "--ckpt-dir", dir.resolve("ckpt2").toString());
      jobs.add(restart);
      MiniGrid.await("the restarted program's output", Duration.ofMinutes(2), () -> Ticks.of(restart.stdout()).size() >= 10,
          () -> restart.stderr());
      killJob(restart);
      assertThat(restart.stderr()).contains("restarting 1 process(es) of sim.n0." + latest.get("step").asLong());

      List<long[]> resumed = Ticks.of(restart.stdout());
      long first = resumed.get(0)[0];
      assertThat(first).as("resumed from a checkpoint, not from the start").isGreaterThan(0);
      assertThat(first).as("resumed at or before where it was killed").isLessThanOrEqualTo(lastBefore + 1L);
      long acc = 0;
      for (long i = 0; i < first; i++) {
        acc = (acc * 31 + i) % 1_000_000_007L;
      }
      for (int k = 0; k < resumed.size(); k++) {
        long[] t = resumed.get(k);
        acc = (acc * 31 + t[0]) % 1_000_000_007L;
        assertThat(t[0]).as("ticks follow one another").isEqualTo(first + k);
        assertThat(t[1]).as("tick " + t[0] + " carries the state an uninterrupted run has").isEqualTo(acc);
      }

      // killed again before a newer checkpoint: restarting once more replaces the copy the first restart fetched
      MiniGrid.Node again = grid.startCli("restart2", env, "dmtcp", "restart", "--app", "sim", "--node", "n0", "--interval", "1h",
          "--ckpt-dir", dir.resolve("ckpt2").toString());
      jobs.add(again);
      MiniGrid.await("the second restart's output", Duration.ofMinutes(2), () -> Ticks.of(again.stdout()).size() >= 3,
          () -> again.stderr());
      killJob(again);
      assertThat(Ticks.of(again.stdout()).get(0)[0]).as("the same checkpoint again").isEqualTo(first);
    }
  }

  private static List<JsonNode> versions(MiniGrid grid) throws Exception {
    MiniGrid.Cli r = grid.cli("versions", "--app", "sim", "--node", "n0", "--json");
    assertThat(r.exit()).as(r.stderr()).isZero();
    List<JsonNode> out = new ArrayList<>();
    r.json().forEach(out::add);
    return out;
  }

  /** SIGKILL to the job's processes (the program, restored under DMTCP, has no command line to find it by), then its end. */
  private static void killJob(MiniGrid.Node job) throws InterruptedException {
    job.process().descendants().forEach(ProcessHandle::destroyForcibly);
    if (!job.process().waitFor(2, TimeUnit.MINUTES)) {
      job.process().destroyForcibly();
      throw new AssertionError("the cairn dmtcp command did not end after its program was killed");
    }
  }
}
