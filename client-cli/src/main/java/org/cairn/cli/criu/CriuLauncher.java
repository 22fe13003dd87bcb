package org.cairn.cli.criu;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.config.ByteSize;
import org.cairn.core.manifest.Manifest;

/**
 * A program run detached for CRIU (its own session through setsid, standard input from /dev/null, its output
 * appended to a file, so no --shell-job is needed and the output file passes CRIU's restore checks however much it
 * grew) and dumped into the grid every interval with --leave-running. SIGUSR1 to this process dumps at once;
 * SIGTERM (a scheduler's preemption) makes a last dump that ends the program, as CRIU's dump without
 * --leave-running does. Dumps run one at a time; a failed one is said on standard error and the program goes on.
 * As part of a job on several hosts ({@link SetFlags.HostPart}) each dump is this host's part of its round's checkpoint
 * set, and the periodic dumps run on the wall-clock multiples of the interval so that the hosts' rounds meet
 * ({@link SetRounds}).
 */
final class CriuLauncher {
  /** The exit status after SIGTERM, as a shell reports a process ended by it. */
  static final int TERMINATED = 128 + 15;

  private final CriuDumper dumper;
  private final PrintWriter err;
  /** This host's part of each round's set; null: each dump a version of its own. */
  private final SetFlags.HostPart part;
  private final Clock clock;
  private final ScheduledThreadPoolExecutor dumps = new ScheduledThreadPoolExecutor(1, r -> {
    Thread t = new Thread(r, "criu-dumps");
    t.setDaemon(true);
    return t;
  });
  private final AtomicBoolean terminated = new AtomicBoolean();
  private int stored;
  private int failed;

  CriuLauncher(CriuDumper dumper, PrintWriter err) {
    this(dumper, err, null, Clock.systemUTC());
  }

  CriuLauncher(CriuDumper dumper, PrintWriter err, SetFlags.HostPart part, Clock clock) {
    this.dumper = dumper;
    this.err = err;
    this.part = part;
    this.clock = clock;
    // a round scheduled but not yet due when the program ends is not waited for
    dumps.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** The command that starts {@code program} in a session of its own. */
  static List<String> detached(List<String> program) {
    List<String> cmd = new ArrayList<>(List.of("setsid"));
    cmd.addAll(program);
    return cmd;
  }

  /** Runs {@code program} to its end, dumping it every {@code interval}; returns its exit status (143 after SIGTERM). */
  int run(List<String> program, Path output, Duration interval) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(detached(program)).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
    Process p = pb.start();
    Thread hook = new Thread(() -> p.destroyForcibly(), "criu-job-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    Signals.on("USR1", () -> {
      Manifest.SetPart set = onDemand("usr1");
      dumps.execute(() -> dump(p, true, set));
    });
    Signals.on("TERM", () -> {
      terminated.set(true);
      Manifest.SetPart set = onDemand("term");
      dumps.execute(() -> {
        dump(p, false, set);
        p.destroyForcibly(); // the dump failed and left it running, or CRIU already ended it
      });
    });
    // said once the signals are handled: a scheduler that signals after this line gets a dump, not a killed command
    say("started " + String.join(" ", program) + " as " + p.pid() + ", output appended to " + output);
    try {
      if (part == null) {
        long every = Math.max(1, interval.toMillis());
        dumps.scheduleWithFixedDelay(() -> dump(p, true, null), every, every, TimeUnit.MILLISECONDS);
      } else {
        scheduleRound(p, interval);
      }
      int status = p.waitFor();
      drain(dumps);
      say(String.format(Locale.ROOT, "%s ended (status %d); %d dump(s) stored, %d failed", program.get(0), status, stored, failed));
      return terminated.get() ? TERMINATED : status;
    } finally {
      dumps.shutdownNow();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it ends the program
      }
    }
  }

  /** Lets a dump already running (the SIGTERM one) finish; periodic ones are not started any more. */
  private static void drain(ExecutorService dumps) throws InterruptedException {
    dumps.shutdown();
    dumps.awaitTermination(10, TimeUnit.MINUTES);
  }

  /** This host's part of the set of a dump on demand asked for now by {@code what}; null outside a set. */
  private Manifest.SetPart onDemand(String what) {
    return part == null ? null : part.ofRound(SetRounds.onDemand(clock.instant(), what));
  }

  /** Schedules the dump of the next periodic round (a wall-clock multiple of {@code interval}), which schedules the one after. */
  private void scheduleRound(Process p, Duration interval) {
    Instant now = clock.instant();
    Instant round = SetRounds.nextRound(now, interval);
    Manifest.SetPart set = part.ofRound(SetRounds.periodic(round));
    try {
      dumps.schedule(() -> {
        dump(p, true, set);
        scheduleRound(p, interval);
      }, Duration.between(now, round).toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException ended) {
      // the program has ended: no more rounds
    }
  }

  private void dump(Process p, boolean leaveRunning, Manifest.SetPart set) {
    if (!p.isAlive()) {
      return;
    }
    long t0 = System.nanoTime();
    try {
      StoreOutcome r = dumper.dumpAndStore(p.pid(), leaveRunning, set);
      stored++;
      say(String.format(Locale.ROOT, "dumped %d and stored it (%s) as %s in %.1f s", p.pid(), ByteSize.format(r.size()), stored(r, set),
          (System.nanoTime() - t0) / 1e9));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failed++;
      String absent = set == null ? "" : "; part " + set.part() + " of set " + set.name() + " is absent, so that set never becomes a version";
      say(p.isAlive() || !(e instanceof CriuDumper.DumpFailed) ? "dump failed: " + e.getMessage() + absent
          : "dump skipped: the program ended");
    }
  }

  /** What a stored dump became: a version, or a part of a set (and whether that completed it). */
  static String stored(StoreOutcome r, Manifest.SetPart set) {
    String version = r.app() + "." + r.node() + "." + r.step();
    if (set == null) {
      return version;
    }
    String of = "part " + set.part() + " of set " + set.name();
    Integer committed = r.set() == null ? null : r.set().partsCommitted();
    return r.step() > 0 ? of + ", complete: " + version
        : of + " (" + (committed == null ? "?" : committed.toString()) + " of " + set.parts() + " parts committed)";
  }

  private void say(String line) {
    synchronized (err) {
      err.println("cairn criu: " + line);
      err.flush();
    }
  }
}
