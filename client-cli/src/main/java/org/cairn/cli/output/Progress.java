package org.cairn.cli.output;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.cairn.core.config.ByteSize;

/**
 * A one-line progress display on stderr (bytes, rate, ETA when the total is known), redrawn five
 * times a second, only when the client's stderr is a terminal and --json is off: piped output stays clean.
 */
public final class Progress implements AutoCloseable {
  private final ScheduledExecutorService timer;
  private final PrintStream err;

  private Progress(PrintStream err, String verb, LongSupplier done, long total) {
    this.err = err;
    long start = System.nanoTime();
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "progress");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(() -> {
      long d = done.getAsLong();
      double seconds = (System.nanoTime() - start) / 1e9;
      double rate = d / Math.max(seconds, 1e-3);
      String line;
      if (total > 0) {
        double fraction = Math.min(1.0, (double) d / total);
        int width = 30;
        int filled = (int) Math.round(fraction * width);
        long eta = rate > 0 ? Math.round((total - d) / rate) : -1;
        line = String.format(Locale.ROOT, "\r%s [%s%s] %3.0f%% %s of %s, %s/s, ETA %s   ", verb, "#".repeat(filled),
            " ".repeat(width - filled), fraction * 100, ByteSize.format(d), ByteSize.format(total), ByteSize.format((long) rate),
            eta < 0 ? "?" : eta / 60 + ":" + String.format(Locale.ROOT, "%02d", eta % 60));
      } else {
        line = String.format(Locale.ROOT, "\r%s %s, %s/s   ", verb, ByteSize.format(d), ByteSize.format((long) rate));
      }
      err.print(line);
      err.flush();
    }, 200, 200, TimeUnit.MILLISECONDS);
  }

  /** A progress display on {@code err} if it is a terminal and JSON is not wanted, else a no-op. */
  public static AutoCloseable start(PrintStream err, boolean terminal, boolean json, String verb, LongSupplier done, long total) {
    if (json || !terminal) {
      return () -> { };
    }
    return new Progress(err, verb, done, total);
  }

  @Override
  public void close() {
    timer.shutdownNow();
    err.print("\r" + " ".repeat(100) + "\r");
    err.flush();
  }
}
