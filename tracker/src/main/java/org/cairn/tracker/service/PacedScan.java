package org.cairn.tracker.service;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The repair scan, every {@code interval} but never more than a tenth of one core: a scan reads the
 * whole chunk index, so on a large catalog (hundreds of thousands of chunks) it would otherwise
 * take the CPU that commits and heartbeats need. The next scan starts {@code max(interval, 9 x the
 * last scan's time)} after the last one ended. A failure does not wait for that: {@link #soon} runs a
 * scan when a DOWN peer's grace has passed, outside the pacing (a 10 M-chunk walk takes ~36 s, so the
 * paced one could come ~5 minutes later; docs/simulation.md, "The catalog at scale"). Scans run on
 * the executor given, one at a time: give it a thread of its own, so a long walk holds up no
 * failure detection.
 */
final class PacedScan implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(PacedScan.class);
  /** Wait at least this many times the scan's own time between scans (a 10 % duty cycle). */
  static final int SPACING = 9;

  private final ScheduledExecutorService sched;
  private final Runnable scan;
  private final long intervalMillis;
  private boolean stretched;
  /** When the pending {@link #soon} scan runs (monotonic ms), or {@link Long#MAX_VALUE} if none is pending. */
  private long soonAt = Long.MAX_VALUE;
  /** The latest time a {@link #soon} scan was asked for (monotonic ms). */
  private long latestDue = Long.MIN_VALUE;

  PacedScan(ScheduledExecutorService sched, Runnable scan, long intervalMillis) {
    this.sched = sched;
    this.scan = scan;
    this.intervalMillis = intervalMillis;
  }

  void start() {
    sched.schedule(this, intervalMillis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void run() {
    long t0 = System.nanoTime();
    scan.run();
    long next = delayAfter((System.nanoTime() - t0) / 1_000_000);
    if (next > intervalMillis && !stretched) {
      stretched = true;
      LOG.info("the repair scan takes {} ms: scanning every {} ms instead of every {} ms", next / SPACING, next, intervalMillis);
    }
    try {
      sched.schedule(this, next, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopping) {
      // the tracker is shutting down
    }
  }

  /**
   * Asks for a scan {@code delayMillis} from now, outside the pacing (a peer went DOWN: its chunks are due
   * for repair once its grace has passed). Requests coalesce: one scan is pending at a time, at the earliest
   * time asked; a request for a later time than a scan's start runs another scan then.
   */
  synchronized void soon(long delayMillis) {
    long due = nowMillis() + Math.max(0, delayMillis);
    latestDue = Math.max(latestDue, due);
    if (soonAt == Long.MAX_VALUE) {
      schedule(due);
    }
  }

  private void runSoon() {
    long started = nowMillis();
    scan.run();
    synchronized (this) {
      soonAt = Long.MAX_VALUE;
      if (latestDue > started) {
        schedule(latestDue); // asked for after this scan began: its peers' grace had not passed yet
      }
    }
  }

  private void schedule(long due) {
    try {
      sched.schedule(this::runSoon, Math.max(0, due - nowMillis()), TimeUnit.MILLISECONDS);
      soonAt = due;
    } catch (RejectedExecutionException stopping) {
      // the tracker is shutting down
    }
  }

  private static long nowMillis() {
    return System.nanoTime() / 1_000_000;
  }

  /** The wait before the next scan after one that took {@code tookMillis}. */
  long delayAfter(long tookMillis) {
    return Math.max(intervalMillis, tookMillis * SPACING);
  }
}
