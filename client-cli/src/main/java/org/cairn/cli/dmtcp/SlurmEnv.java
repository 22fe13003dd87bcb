package org.cairn.cli.dmtcp;

import java.util.Map;

/**
 * What a Slurm batch job's environment says about the job: its id (the array job's id and the task's
 * index for an array task) and how many times it was requeued ({@code SLURM_RESTART_COUNT}, unset on
 * the first run).
 */
record SlurmEnv(String jobId, String arrayJobId, String arrayTaskId, int restartCount) {
  /** Reads {@code env} (a process's environment); refuses one without a Slurm job id or with malformed values. */
  static SlurmEnv of(Map<String, String> env) {
    String jobId = env.get("SLURM_JOB_ID");
    if (jobId == null || jobId.isBlank()) {
      throw new IllegalArgumentException("SLURM_JOB_ID is not set: --slurm runs inside a Slurm batch job (sbatch)");
    }
    String arrayJob = env.get("SLURM_ARRAY_JOB_ID");
    String arrayTask = env.get("SLURM_ARRAY_TASK_ID");
    if ((arrayJob == null) != (arrayTask == null)) {
      throw new IllegalArgumentException("SLURM_ARRAY_JOB_ID and SLURM_ARRAY_TASK_ID are set only together, here '" + arrayJob
          + "' and '" + arrayTask + "'");
    }
    String count = env.get("SLURM_RESTART_COUNT");
    return new SlurmEnv(number("SLURM_JOB_ID", jobId), arrayJob == null ? null : number("SLURM_ARRAY_JOB_ID", arrayJob),
        arrayTask == null ? null : number("SLURM_ARRAY_TASK_ID", arrayTask),
        count == null || count.isBlank() ? 0 : Integer.parseInt(number("SLURM_RESTART_COUNT", count)));
  }

  /**
   * The node name this job keeps across requeues: the job id, or for an array task {@code ARRAYJOBID_TASK}
   * (as Slurm itself writes it, {@code %A_%a}).
   */
  String node() {
    return arrayJobId == null ? jobId : arrayJobId + "_" + arrayTaskId;
  }

  /** Whether this run is a requeued one (Slurm started the job before). */
  boolean requeued() {
    return restartCount > 0;
  }

  private static String number(String name, String value) {
    String v = value.strip();
    if (!v.matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException(name + " is not a number Slurm gives: '" + value + "'");
    }
    return v;
  }
}
