package org.cairn.sim.fleet;

/**
 * The churn model's clock: simulated milliseconds since midnight of day one, starting at {@code startHour} and running
 * {@code scale} times faster than the monotonic clock. Heartbeats and the tracker's timeouts stay in real time (the
 * tracker's clock is its own); only the owners' days and the labs' outages are compressed.
 */
public record SimClock(long originNanos, long startMillis, double scale) {
  public SimClock {
    if (scale <= 0) {
      throw new IllegalArgumentException("--time-scale must be positive, was " + scale);
    }
  }

  public static SimClock startingAt(int hour, double scale) {
    return new SimClock(System.nanoTime(), hour * 3_600_000L, scale);
  }

  public long now() {
    return startMillis + (long) ((System.nanoTime() - originNanos) / 1e6 * scale);
  }
}
