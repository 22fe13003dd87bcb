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
 * last scan's time)} after the last one ended.
 */
final class PacedScan implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(PacedScan.class);
  /** Wait at least this many times the scan's own time between scans (a 10 % duty cycle). */
  static final int SPACING = 9;

  private final ScheduledExecutorService sched;
  private final Runnable scan;
  private final long intervalMillis;
  private boolean stretched;

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

  /** The wait before the next scan after one that took {@code tookMillis}. */
  long delayAfter(long tookMillis) {
    return Math.max(intervalMillis, tookMillis * SPACING);
  }
}
