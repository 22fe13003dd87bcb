package org.cairn.tracker.api;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How far behind the server's event loops are, which is how late the heartbeats they read are taken: each loop runs a
 * probe every {@link #PERIOD_MILLIS}, and the lag is how late the latest ran, or how overdue the pending one is, the
 * most over the last window. A tracker short of CPU (or paused) takes its donors' heartbeats late; failure detection
 * allows for that instead of marking live donors DOWN (HashiCorp's Lifeguard for SWIM calls this local health awareness).
 */
final class LoopLag {
  static final long PERIOD_MILLIS = 200;

  private final LongSupplier nanos;
  private final long windowNanos;
  private final List<Probe> probes = new ArrayList<>();

  /** One loop's probe: when the pending run is due, and the most it was late within the window. */
  private static final class Probe {
    volatile long dueNanos;
    volatile long worstNanos;
    volatile long worstAtNanos;
  }

  LoopLag(EventExecutorGroup loops, long windowMillis, LongSupplier nanos) {
    this.nanos = nanos;
    this.windowNanos = TimeUnit.MILLISECONDS.toNanos(windowMillis);
    for (EventExecutor e : loops) {
      Probe p = new Probe();
      probes.add(p);
      schedule(e, p);
    }
  }

  private void schedule(EventExecutor loop, Probe p) {
    p.dueNanos = nanos.getAsLong() + TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS);
    try {
      loop.schedule(() -> {
        long now = nanos.getAsLong();
        long late = Math.max(0, now - p.dueNanos);
        if (late >= p.worstNanos || now - p.worstAtNanos > windowNanos) {
          p.worstNanos = late;
          p.worstAtNanos = now;
        }
        if (!loop.isShuttingDown()) {
          schedule(loop, p);
        }
      }, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // the server is stopping: no more probes
    }
  }

  /** The lag, in milliseconds: the most any loop's probe was late within the window, or is overdue now. */
  long millis() {
    long now = nanos.getAsLong();
    long worst = 0;
    for (Probe p : probes) {
      worst = Math.max(worst, now - p.dueNanos); // overdue: the loop has not got to it yet
      if (now - p.worstAtNanos <= windowNanos) {
        worst = Math.max(worst, p.worstNanos);
      }
    }
    return TimeUnit.NANOSECONDS.toMillis(Math.max(0, worst));
  }
}
