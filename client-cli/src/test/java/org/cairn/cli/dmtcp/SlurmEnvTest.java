package org.cairn.cli.dmtcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a Slurm batch job's environment gives {@code cairn dmtcp launch --slurm}: the node name and whether the run is requeued. */
class SlurmEnvTest {
  @Test
  void aPlainJobsNode_isItsJobId_andItsFirstRunIsNoRequeue() {
    SlurmEnv e = SlurmEnv.of(Map.of("SLURM_JOB_ID", "4211", "SLURM_JOB_NAME", "sim"));
    assertThat(e.node()).isEqualTo("4211");
    assertThat(e.restartCount()).isZero();
    assertThat(e.requeued()).isFalse();
  }

  @Test
  void anArrayTasksNode_isTheArrayJobIdAndTheTaskIndex_asSlurmWritesIt() {
    // each task has a job id of its own; %A_%a is what squeue shows and what stays the same across the task's requeues
    SlurmEnv e = SlurmEnv.of(Map.of("SLURM_JOB_ID", "4215", "SLURM_ARRAY_JOB_ID", "4211", "SLURM_ARRAY_TASK_ID", "3"));
    assertThat(e.node()).isEqualTo("4211_3");
  }

  @Test
  void aRestartCountAboveZero_isARequeuedRun() {
    assertThat(SlurmEnv.of(Map.of("SLURM_JOB_ID", "7", "SLURM_RESTART_COUNT", "2")).requeued()).isTrue();
    assertThat(SlurmEnv.of(Map.of("SLURM_JOB_ID", "7", "SLURM_RESTART_COUNT", "0")).requeued()).isFalse();
    assertThat(SlurmEnv.of(Map.of("SLURM_JOB_ID", "7", "SLURM_RESTART_COUNT", "")).requeued()).as("set but empty").isFalse();
  }

  @Test
  void outsideAJob_orWithValuesSlurmNeverGives_itSaysWhichVariable() {
    assertThatThrownBy(() -> SlurmEnv.of(Map.of())).hasMessageContaining("SLURM_JOB_ID is not set");
    assertThatThrownBy(() -> SlurmEnv.of(Map.of("SLURM_JOB_ID", " "))).hasMessageContaining("SLURM_JOB_ID is not set");
    assertThatThrownBy(() -> SlurmEnv.of(Map.of("SLURM_JOB_ID", "../x"))).hasMessageContaining("SLURM_JOB_ID is not a number");
    assertThatThrownBy(() -> SlurmEnv.of(Map.of("SLURM_JOB_ID", "1", "SLURM_RESTART_COUNT", "-1")))
        .hasMessageContaining("SLURM_RESTART_COUNT");
    assertThatThrownBy(() -> SlurmEnv.of(Map.of("SLURM_JOB_ID", "1", "SLURM_ARRAY_TASK_ID", "2")))
        .hasMessageContaining("SLURM_ARRAY_JOB_ID and SLURM_ARRAY_TASK_ID");
    assertThatThrownBy(() -> SlurmEnv.of(Map.of("SLURM_JOB_ID", "1", "SLURM_ARRAY_JOB_ID", "1", "SLURM_ARRAY_TASK_ID", "2.5")))
        .hasMessageContaining("SLURM_ARRAY_TASK_ID is not a number");
  }
}
