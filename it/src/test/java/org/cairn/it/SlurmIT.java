package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn dmtcp launch --slurm} as the one command of a batch script, under a real single-node
 * Slurm ({@link SlurmCluster}) and real DMTCP: Slurm's warning signal ({@code scancel -b -s USR1}) has
 * a checkpoint stored while the program runs on; {@code scontrol requeue} (SIGTERM to every process of
 * the job) has another stored before the job ends; two of the five peers holding it (code:3+2) are
 * stopped; the requeued run restarts the program from the grid's latest version of app/JOBID, and its
 * ticks continue from the checkpointed one with the state an uninterrupted run has.
 */
class SlurmIT {

  @TempDir
  Path dir;

  @Test
  void aJobCheckpointedOnSlurmsSignalsAndRequeued_resumesFromTheGridWithTwoHoldersDead() throws Exception {
    Path bin = Dmtcp.bin();
    SlurmCluster.require();
    // JUnit makes the directory 0700; munged, user munge, reaches its socket in it
    Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Path program = Files.writeString(dir.resolve("counter.py"), Dmtcp.COUNTER);
    try (MiniGrid grid = new MiniGrid(Files.createDirectories(dir.resolve("grid")), Duration.ofMillis(500));
        SlurmCluster slurm = SlurmCluster.start(Files.createDirectories(dir.resolve("slurm")))) {
      grid.startTracker();
      List<MiniGrid.Node> peers = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        peers.add(grid.startPeer("p" + i));
      }
      Path out = dir.resolve("job.out");
      Path err = dir.resolve("job.err");
      String jobId = slurm.submit(jobEnv(grid, bin), batchScript(grid, program), "--requeue", "--signal=B:USR1@60",
          "--open-mode=append", "--output=" + out, "--error=" + err, "--chdir=" + dir);
      Job job = new Job(slurm, jobId, out, err);
      MiniGrid.await("the job's program ticking", Duration.ofSeconds(120), () -> Ticks.of(job.out(0)).size() >= 10, job::describe);

      slurm.run("scancel", "-b", "-s", "USR1", jobId);
      MiniGrid.await("the checkpoint on SIGUSR1", Duration.ofSeconds(120), () -> job.err().contains("checkpoint on SIGUSR1 stored as"),
          job::describe);
      assertThat(versions(grid, jobId)).as("one version of app sim, node = the job id").hasSize(1);
      int afterWarning = Ticks.last(job.out(0));
      MiniGrid.await("the program going on after the warning's checkpoint", Duration.ofSeconds(30),
          () -> Ticks.last(job.out(0)) >= afterWarning + 5, job::describe);

      slurm.run("scontrol", "requeue", jobId);
      MiniGrid.await("the checkpoint on SIGTERM", Duration.ofSeconds(120), () -> job.err().contains("checkpoint on SIGTERM stored as"),
          job::describe);
      job.awaitState("PENDING", Duration.ofSeconds(120)); // the first run ended, the job requeued
      List<JsonNode> stored = versions(grid, jobId);
      assertThat(stored).as("the warning's checkpoint and the requeue's").hasSize(2);
      long latest = stored.get(1).get("step").asLong();
      long firstRunEnd = Files.size(out);
      int lastBefore = Ticks.last(job.out(0));

      peers.get(0).kill();
      peers.get(1).kill();
      grid.forgetBases(); // as on another host: every chunk from the three peers left
      MiniGrid.await("the requeued run's ticks", Duration.ofSeconds(120), () -> Ticks.of(job.out(firstRunEnd)).size() >= 10,
          job::describe);
      assertThat(job.err()).contains("requeued run 1 of job " + jobId + ": restarting from the grid")
          .contains("restarting 1 process(es) of sim." + jobId + "." + latest);

      List<long[]> resumed = Ticks.of(job.out(firstRunEnd));
      long first = resumed.get(0)[0];
      assertThat(first).as("resumed from the requeue's checkpoint, not from tick 0 nor from the warning's")
          .isGreaterThan(afterWarning + 5L).isLessThanOrEqualTo(lastBefore + 1L);
      assertContinues(resumed);
      slurm.run("scancel", jobId);
      job.awaitState("", Duration.ofSeconds(120)); // cancelled: its last checkpoint stored, squeue no longer lists it
    }
  }

  /** The batch script of the contract: one command, exec'd, so this process is the batch shell Slurm signals. */
  private Path batchScript(MiniGrid grid, Path program) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String script = String.join("\n", "#!/bin/bash",
        "exec " + java + " -jar " + MiniGrid.jar("client-cli", "cairn.jar") + " --tracker " + grid.trackerUrl() + " --token-file "
            + grid.tokenFile() + " dmtcp launch --slurm --app sim --interval 1h -- " + Dmtcp.python() + " " + program,
        "");
    return Files.writeString(dir.resolve("job.sh"), script);
  }

  /** What the job's processes get besides sbatch's own environment: DMTCP on PATH, this grid's keys and caches. */
  private Map<String, String> jobEnv(MiniGrid grid, Path bin) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
    env.put("CAIRN_KEY_DIR", grid.root().resolve("keys").toString());
    env.put("CAIRN_BASE_CACHE", grid.baseCache().toString());
    env.put("XDG_CACHE_HOME", dir.resolve("cache").toString()); // the checkpoint directory, not the user's ~/.cache
    return env;
  }

  private static List<JsonNode> versions(MiniGrid grid, String node) throws Exception {
    MiniGrid.Cli r = grid.cli("versions", "--app", "sim", "--node", node, "--json");
    assertThat(r.exit()).as(r.stderr()).isZero();
    List<JsonNode> out = new ArrayList<>();
    r.json().forEach(out::add);
    return out;
  }

  /** Ticks follow one another, each with the running hash an uninterrupted run computes. */
  private static void assertContinues(List<long[]> resumed) {
    long first = resumed.get(0)[0];
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
  }

  /** The batch job's files (appended to by every run) and what to say when a wait times out. */
  private record Job(SlurmCluster slurm, String id, Path outFile, Path errFile) {
    /** Its standard output from byte {@code from} on (a line cut by the read is dropped by the tick pattern). */
    String out(long from) throws java.io.IOException {
      if (!Files.exists(outFile)) {
        return "";
      }
      byte[] all = Files.readAllBytes(outFile);
      return new String(all, (int) Math.min(from, all.length), all.length - (int) Math.min(from, all.length),
          java.nio.charset.StandardCharsets.UTF_8);
    }

    String err() throws java.io.IOException {
      return Files.exists(errFile) ? Files.readString(errFile) : "";
    }

    /** Polls squeue (a process each time, so twice a second) until it says {@code state} ("": no longer listed). */
    void awaitState(String state, Duration limit) throws Exception {
      long deadline = System.nanoTime() + limit.toNanos();
      while (!slurm.state(id).equals(state)) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("job " + id + " not " + (state.isEmpty() ? "gone" : state) + " after " + limit.toSeconds() + " s; "
              + describe());
        }
        Thread.sleep(500);
      }
    }

    String describe() throws Exception {
      String o = out(0);
      return "job " + id + " " + slurm.state(id) + "; stdout ends " + o.substring(Math.max(0, o.length() - 300)) + "; stderr: " + err()
          + "\n" + slurm.logs();
    }
  }
}
