package org.cairn.cli.dmtcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cairn.cli.CairnCli;
import org.cairn.core.api.catalog.VersionRow;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** How {@code dmtcp launch --slurm} decides its node, whether to restart, and keeps its program alive through Slurm's SIGTERM. */
class SlurmJobTest {
  @Test
  void aProgramStartedIgnoringTerm_outlivesSigterm_whereTheSameProgramStartedPlainlyDies() throws Exception {
    List<String> sleep = List.of("sleep", "30");
    Process plain = new ProcessBuilder(sleep).start();
    Process ignoring = new ProcessBuilder(SlurmJob.ignoringTerm(sleep)).start();
    try {
      // The shell sets the trap, then execs: until the exec, the process is still the shell, and a SIGTERM then
      // would race the trap. Await the exec, which also shows the wrapper becomes the program (the same process).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!ignoring.info().command().orElse("").endsWith("sleep") && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(ignoring.info().command()).as("the wrapper execs the program: the same process").hasValueSatisfying(
          c -> assertThat(c).endsWith("sleep"));
      plain.destroy(); // SIGTERM
      ignoring.destroy();
      assertThat(plain.waitFor(10, TimeUnit.SECONDS)).as("the plain one ends on SIGTERM").isTrue();
      assertThat(ignoring.waitFor(1, TimeUnit.SECONDS)).as("the one started ignoring it does not").isFalse();
    } finally {
      ignoring.destroyForcibly();
      plain.destroyForcibly();
    }
  }

  @Test
  void aFirstRunLaunchesAnew_aRequeuedOneRestartsOnlyWhenTheGridHoldsAVersion() {
    StringWriter said = new StringWriter();
    SlurmJob job = new SlurmJob(new PrintWriter(said, true)); // its handlers are not installed in this JVM
    SlurmEnv first = SlurmEnv.of(java.util.Map.of("SLURM_JOB_ID", "12"));
    SlurmEnv requeued = SlurmEnv.of(java.util.Map.of("SLURM_JOB_ID", "12", "SLURM_RESTART_COUNT", "1"));
    List<VersionRow> none = List.of();
    List<VersionRow> two = List.of(version(1), version(2));
    assertThat(job.resumes(first, none)).isFalse();
    assertThat(job.resumes(requeued, none)).isFalse();
    assertThat(said.toString()).contains("requeued run 1 of job 12, but the grid holds no checkpoint of it yet");
    assertThat(job.resumes(first, two)).as("an earlier job's versions under the same id").isFalse();
    assertThat(said.toString()).contains("the grid already holds sim.12 up to step 2 (an earlier job's)");
    assertThat(job.resumes(requeued, two)).isTrue();
  }

  @Test
  void withoutSlurm_nodeIsRequired_andSlurmOutsideAJobIsRefusedInOneLine() {
    Run r = cairn("dmtcp", "launch", "--app", "sim", "--", "true");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("Missing required option: '--node=NODE' (or --slurm, inside a Slurm job)");
    org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("SLURM_JOB_ID") == null, "this test runs inside a Slurm job");
    Run s = cairn("dmtcp", "launch", "--slurm", "--app", "sim", "--", "true");
    assertThat(s.exit()).isEqualTo(2);
    assertThat(s.err()).contains(": --slurm: SLURM_JOB_ID is not set: --slurm runs inside a Slurm batch job (sbatch)\n");
  }

  private record Run(int exit, String err) {}

  private static Run cairn(String... args) {
    List<String> all = new ArrayList<>(List.of("--tracker", "http://127.0.0.1:9", "--token-file", "/nonexistent"));
    all.addAll(List.of(args));
    StringWriter err = new StringWriter();
    CommandLine cli = CairnCli.commandLine();
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    return new Run(cli.execute(all.toArray(String[]::new)), err.toString());
  }

  private static VersionRow version(long step) {
    return new VersionRow("sim", "12", step, 1, 1, 1, 1, "code:3+2", "OK", "code:3+2", "dir", 0, 0, "COMMITTED", null, null);
  }
}
