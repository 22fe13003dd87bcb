package org.cairn.peer.heartbeat;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Runs the heartbeat at the interval the tracker asks for. The local setting is only the interval
 * until the first answer; every register or heartbeat answer's interval is adopted (clamped to
 * MIN_MILLIS..MAX_MILLIS; 0 or less, a tracker that does not say, keeps the current one). Beats are
 * at a fixed rate: each is due one interval after the previous one started, so a slow beat does not
 * push the next ones back, and an interval adopted between beats moves the beat already scheduled.
 * Time is a monotonic tick (nanoseconds) supplied by the caller, so a wall clock that jumps cannot
 * stall heartbeats, and tests can drive it.
 */
public final class HeartbeatSchedule {
  private static final Logger LOG = LoggerFactory.getLogger(HeartbeatSchedule.class);

  /** The shortest interval adopted: a tracker asking for less gets this. */
  public static final long MIN_MILLIS = 100;
  /** The longest interval adopted (5 min): a tracker asking for more gets this. */
  public static final long MAX_MILLIS = 5 * 60 * 1000;

  /** Runs a task once after a delay; a seam for tests. */
  @FunctionalInterface
  interface Timer {
    Future<?> schedule(Runnable task, long delayMillis);
  }

  private final Timer timer;
  private final LongSupplier nanoTime;
  private final Runnable beat;
  private long intervalMillis;
  private long lastStart;
  private boolean started;
  private boolean beating;
  private boolean stopped;
  private Future<?> next;

  /**
   * @param executor runs the beats (and nothing slow besides them: a beat waits for the thread)
   * @param beat one heartbeat; it may call {@link #adopt} with the tracker's answer
   * @param initial the interval until the tracker names one
   */
  public HeartbeatSchedule(ScheduledExecutorService executor, Runnable beat, Duration initial) {
    this((task, delay) -> executor.schedule(task, delay, TimeUnit.MILLISECONDS), System::nanoTime, beat, initial);
  }

  HeartbeatSchedule(Timer timer, LongSupplier nanoTime, Runnable beat, Duration initial) {
    if (initial.toMillis() < MIN_MILLIS) {
      throw new IllegalArgumentException("heartbeat interval must be at least " + MIN_MILLIS + "ms, was " + initial.toMillis() + "ms");
    }
    this.timer = timer;
    this.nanoTime = nanoTime;
    this.beat = beat;
    this.intervalMillis = initial.toMillis(); // a local setting above MAX_MILLIS stands until the tracker answers
  }

  /** The first beat at once, then one every interval. */
  public synchronized void start() {
    if (started || stopped) {
      return;
    }
    started = true;
    lastStart = nanoTime.getAsLong();
    scheduleAt(0);
  }

  /** The interval beats run at now. */
  public synchronized long intervalMillis() {
    return intervalMillis;
  }

  /**
   * Adopts the interval a tracker answered with, clamped; moves the next beat when it changes.
   *
   * @return whether the interval changed
   */
  public synchronized boolean adopt(long askedMillis) {
    if (askedMillis <= 0) {
      return false;
    }
    long adopted = Math.max(MIN_MILLIS, Math.min(MAX_MILLIS, askedMillis));
    if (adopted == intervalMillis) {
      return false;
    }
    LOG.info("heartbeat interval {} ms -> {} ms, as the tracker asks{}", intervalMillis, adopted,
        adopted == askedMillis ? "" : " (it asked for " + askedMillis + " ms, outside " + MIN_MILLIS + ".." + MAX_MILLIS + ")");
    intervalMillis = adopted;
    if (started && !beating && !stopped && next != null) {
      next.cancel(false); // scheduled at the old interval; a beat under way schedules its successor itself
      scheduleAt(dueIn());
    }
    return true;
  }

  /** Stops beating; a beat under way finishes. Idempotent. */
  public synchronized void stop() {
    stopped = true;
    if (next != null) {
      next.cancel(false);
    }
  }

  private void run() {
    synchronized (this) {
      if (stopped) {
        return;
      }
      beating = true;
      lastStart = nanoTime.getAsLong();
    }
    try {
      beat.run();
    } catch (RuntimeException e) {
      LOG.error("heartbeat failed", e); // the next beat still runs
    } finally {
      synchronized (this) {
        beating = false;
        if (!stopped) {
          scheduleAt(dueIn());
        }
      }
    }
  }

  /** Milliseconds until one interval after the last beat started (0 when that has passed). */
  private long dueIn() {
    long elapsed = TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - lastStart);
    return Math.max(0, intervalMillis - elapsed);
  }

  private void scheduleAt(long delayMillis) {
    try {
      next = timer.schedule(this::run, delayMillis);
    } catch (RejectedExecutionException e) {
      stopped = true; // the executor is shutting down with its owner
    }
  }
}
