package org.cairn.sim.measure;

import java.util.Arrays;

/** Latencies in nanoseconds, recorded from many threads; quantiles in milliseconds. */
public final class Latencies {
  private long[] values = new long[1024];
  private int size;

  public synchronized void record(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
  }

  public synchronized int count() {
    return size;
  }

  /** Forgets what was recorded (the end of a warm-up). */
  public synchronized void reset() {
    size = 0;
  }

  /** The q-quantile (nearest rank) in milliseconds; 0 when nothing was recorded. */
  public synchronized double millis(double q) {
    if (q < 0 || q > 1) {
      throw new IllegalArgumentException("a quantile is in [0, 1], was " + q);
    }
    if (size == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * size);
    return sorted[Math.max(0, Math.min(size - 1, rank - 1))] / 1e6;
  }

  /** Count, p50, p99 and max, as reported. */
  public Summary summary() {
    return new Summary(count(), round(millis(0.5)), round(millis(0.99)), round(millis(1)));
  }

  private static double round(double ms) {
    return Math.round(ms * 100) / 100.0;
  }

  /** A latency distribution as reported (milliseconds). */
  public record Summary(int count, double p50Ms, double p99Ms, double maxMs) {}
}
