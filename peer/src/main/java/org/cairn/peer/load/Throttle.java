package org.cairn.peer.load;

import java.util.function.LongConsumer;

/**
 * A token bucket in bytes per second (one second of burst) for background work — repair traffic
 * and scrubbing — so it never takes more of a donor's disk or link than configured. 0 means no limit.
 * {@link #counting} gives a view of the same bucket that also tells a counter what passes.
 */
public final class Throttle {
  private final long bytesPerSecond;
  private double available;
  private long last = System.nanoTime();
  /** The bucket this is a view of (null: its own). */
  private final Throttle bucket;
  private final LongConsumer counter;

  public Throttle(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("rate must be >= 0, was " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
    this.available = bytesPerSecond;
    this.bucket = null;
    this.counter = bytes -> { };
  }

  private Throttle(Throttle bucket, LongConsumer counter) {
    this.bytesPerSecond = bucket.bytesPerSecond;
    this.bucket = bucket;
    this.counter = counter;
  }

  /** This bucket, telling {@code counter} the bytes of every acquire. */
  public Throttle counting(LongConsumer counter) {
    return new Throttle(bucket == null ? this : bucket, counter);
  }

  public long rate() {
    return bytesPerSecond;
  }

  /** Waits until {@code bytes} may pass. */
  public void acquire(long bytes) throws InterruptedException {
    counter.accept(bytes);
    if (bucket != null) {
      bucket.acquire(bytes);
      return;
    }
    if (bytesPerSecond == 0) {
      return;
    }
    long waitNanos;
    synchronized (this) {
      long now = System.nanoTime();
      available = Math.min(bytesPerSecond, available + (now - last) / 1e9 * bytesPerSecond);
      last = now;
      available -= bytes;
      waitNanos = available >= 0 ? 0 : (long) (-available / bytesPerSecond * 1e9);
    }
    if (waitNanos > 0) {
      java.util.concurrent.TimeUnit.NANOSECONDS.sleep(waitNanos);
    }
  }
}
