package org.cairn.cli.criu;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.config.ByteSize;

/**
 * A program run detached for CRIU (its own session through setsid, standard input from /dev/null, its output
 * appended to a file, so no --shell-job is needed and the output file passes CRIU's restore checks however much it
 * grew) and dumped into the grid every interval with --leave-running. SIGUSR1 to this process dumps at once;
 * SIGTERM (a scheduler's preemption) makes a last dump that ends the program, as CRIU's dump without
 * --leave-running does. Dumps run one at a time; a failed one is said on standard error and the program goes on.
 */
final class CriuLauncher {
  /** The exit status after SIGTERM, as a shell reports a process ended by it. */
  static final int TERMINATED = 128 + 15;

  private final CriuDumper dumper;
  private final PrintWriter err;
  private final ScheduledExecutorService dumps = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "criu-dumps");
    t.setDaemon(true);
    return t;
  });
  private final AtomicBoolean terminated = new AtomicBoolean();
  private int stored;
  private int failed;

  CriuLauncher(CriuDumper dumper, PrintWriter err) {
    this.dumper = dumper;
    this.err = err;
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
    Signals.on("USR1", () -> dumps.execute(() -> dump(p, true)));
    Signals.on("TERM", () -> {
      terminated.set(true);
      dumps.execute(() -> {
        dump(p, false);
        p.destroyForcibly(); // the dump failed and left it running, or CRIU already ended it
      });
    });
    // said once the signals are handled: a scheduler that signals after this line gets a dump, not a killed command
    say("started " + String.join(" ", program) + " as " + p.pid() + ", output appended to " + output);
    try {
      long every = Math.max(1, interval.toMillis());
      dumps.scheduleWithFixedDelay(() -> dump(p, true), every, every, TimeUnit.MILLISECONDS);
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

  private void dump(Process p, boolean leaveRunning) {
    if (!p.isAlive()) {
      return;
    }
    long t0 = System.nanoTime();
    try {
      StoreOutcome r = dumper.dumpAndStore(p.pid(), leaveRunning);
      stored++;
      say(String.format(Locale.ROOT, "dumped %d and stored it (%s) as %s.%s.%d in %.1f s", p.pid(), ByteSize.format(r.size()),
          r.app(), r.node(), r.step(), (System.nanoTime() - t0) / 1e9));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failed++;
      say(p.isAlive() || !(e instanceof CriuDumper.DumpFailed) ? "dump failed: " + e.getMessage() : "dump skipped: the program ended");
    }
  }

  private void say(String line) {
    synchronized (err) {
      err.println("cairn criu: " + line);
      err.flush();
    }
  }
}
