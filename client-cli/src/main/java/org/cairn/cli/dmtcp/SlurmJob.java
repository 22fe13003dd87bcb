package org.cairn.cli.dmtcp;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.api.catalog.VersionRow;
import sun.misc.Signal;

/**
 * A DMTCP job run as a Slurm batch job's shell ({@code exec cairn ... dmtcp launch --slurm}): Slurm's
 * warning signal (SIGUSR1, from {@code sbatch --signal=B:USR1@N} or {@code scancel -b -s USR1}) has
 * the computation checkpointed and stored while it runs on; the SIGTERM of a requeue, a preemption or
 * a cancel has it checkpointed and stored, then ended. Slurm sends that SIGTERM to every process of
 * the job at once, so the computation is started with SIGTERM ignored (an ignored signal stays ignored
 * across exec, and DMTCP keeps it in the checkpoint): it lives until its last checkpoint is taken.
 */
final class SlurmJob {
  /** The exit status after a SIGTERM: that of a process the signal ended. */
  static final int TERMINATED = DmtcpJob.STOPPED;
  /** How long a SIGUSR1 that comes while the program starts waits for it to run. */
  private static final Duration START_WAIT = Duration.ofMinutes(2);

  private final PrintWriter err;
  private volatile DmtcpJob job;
  private volatile boolean terminated;
  /** Guards {@link #waiting}: the thread of a checkpoint that waits for the program to start, if any. */
  private final Object waitLock = new Object();
  private Thread waiting;

  /** Says what it does on {@code err}; {@link #handleSignals} installs it as this process's signal handler. */
  SlurmJob(PrintWriter err) {
    this.err = err;
  }

  /**
   * Handles SIGUSR1 and SIGTERM from now on (these handlers replace the JVM's). A SIGUSR1 that comes
   * while the program starts (or a requeued run fetches its checkpoint) is served once it runs; a
   * SIGTERM then ends this process without a checkpoint (the grid's latest is as new).
   */
  static SlurmJob handleSignals(PrintWriter err) {
    SlurmJob s = new SlurmJob(err);
    // sun.misc.Signal: the JDK's only way for a program to handle a signal (jdk.unsupported, kept for this use)
    Signal.handle(new Signal("USR1"), sig -> s.checkpoint("SIGUSR1", "Slurm's warning", START_WAIT));
    Signal.handle(new Signal("TERM"), sig -> s.terminate());
    return s;
  }

  /** {@code command} run with SIGTERM ignored, through {@code sh} ({@code trap "" TERM} then exec). */
  static List<String> ignoringTerm(List<String> command) {
    List<String> out = new ArrayList<>(List.of("/bin/sh", "-c", "trap '' TERM; exec \"$@\"", "cairn-dmtcp-job"));
    out.addAll(command);
    return out;
  }

  /** The job the signals are for from now on. */
  void attach(DmtcpJob job) {
    this.job = job;
  }

  /**
   * Whether this run restarts from the grid rather than launching the program anew: a requeued run
   * does, when the grid holds a version of its app/node ({@code versions}, oldest first). A first run
   * always launches (a version there is an earlier job's that had the same id), and says so.
   */
  boolean resumes(SlurmEnv env, List<VersionRow> versions) {
    if (!env.requeued()) {
      if (!versions.isEmpty()) {
        VersionRow last = versions.get(versions.size() - 1);
        say("the grid already holds " + last.app() + "." + last.node() + " up to step " + last.step() + " (an earlier job's); "
            + "this first run of job " + env.node() + " starts the program anew and stores after it");
      }
      return false;
    }
    if (versions.isEmpty()) {
      say("requeued run " + env.restartCount() + " of job " + env.node() + ", but the grid holds no checkpoint of it yet: "
          + "starting the program anew");
      return false;
    }
    say("requeued run " + env.restartCount() + " of job " + env.node() + ": restarting from the grid");
    return true;
  }

  /** Whether a SIGTERM ended the job (the command then exits with {@link #TERMINATED}). */
  boolean terminated() {
    return terminated;
  }

  /**
   * One checkpoint at a time: a signal arriving during another's waits, then takes its own; but a
   * SIGTERM does not wait for a SIGUSR1 that still waits for the program to start.
   */
  private synchronized void checkpoint(String signal, String meaning, Duration startWait) {
    say(signal + " (" + meaning + "): checkpointing");
    DmtcpJob j;
    try {
      j = awaitStart(startWait);
    } catch (InterruptedException e) {
      say("no checkpoint on " + signal + ": a SIGTERM came while the program started");
      return;
    } catch (java.io.IOException e) {
      say("no checkpoint on " + signal + ": " + e.getMessage());
      return;
    }
    try {
      StoreOutcome r = j.checkpointNow();
      say(String.format(Locale.ROOT, "checkpoint on %s stored as %s.%s.%d", signal, r.app(), r.node(), r.step()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      say("no checkpoint on " + signal + ": " + e.getMessage());
    }
  }

  /** The job once attached and its program running under DMTCP (a requeued run may still fetch its checkpoint). */
  private DmtcpJob awaitStart(Duration startWait) throws java.io.IOException, InterruptedException {
    synchronized (waitLock) {
      if (terminated && !startWait.isZero()) {
        throw new InterruptedException();
      }
      waiting = Thread.currentThread();
    }
    try {
      long deadline = System.nanoTime() + startWait.toNanos();
      while (job == null) {
        if (System.nanoTime() >= deadline) {
          throw new java.io.IOException("the program did not start");
        }
        Thread.sleep(DmtcpJob.POLL.toMillis());
      }
      job.awaitRunning(startWait);
      return job;
    } finally {
      synchronized (waitLock) {
        waiting = null;
        Thread.interrupted(); // an interrupt meant for the wait, come too late, is not the checkpoint's
      }
    }
  }

  private void terminate() {
    if (terminated) {
      return; // Slurm's second SIGTERM: the first one's checkpoint is under way
    }
    synchronized (waitLock) {
      terminated = true;
      if (waiting != null) {
        waiting.interrupt(); // a SIGUSR1 waiting for the program to start: the SIGTERM goes first
      }
    }
    if (job == null) {
      say("SIGTERM before the program started: ending");
      System.exit(TERMINATED);
    }
    checkpoint("SIGTERM", "requeue, preemption or cancel", Duration.ZERO);
    try {
      job.stop();
      say("the program is ended (a requeued run of this job restarts it from the grid's latest checkpoint)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void say(String line) {
    err.println("cairn dmtcp: " + line);
    err.flush();
  }
}
