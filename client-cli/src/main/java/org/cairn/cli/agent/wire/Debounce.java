package org.cairn.cli.agent.wire;

import java.time.Duration;

/**
 * At most one event per gap: {@link #tryPass} says yes to the first and then to none until {@code gap} has passed
 * since the last one it let through. Times are {@link System#nanoTime()} values, given, so tests set them.
 */
public final class Debounce {
  private final long gapNanos;
  private long passedAt;
  private boolean passed;

  public Debounce(Duration gap) {
    if (gap.isNegative()) {
      throw new IllegalArgumentException("a negative gap: " + gap);
    }
    this.gapNanos = gap.toNanos();
  }

  /** Whether an event at {@code nanoTime} goes through (it then starts a new gap). */
  public synchronized boolean tryPass(long nanoTime) {
    if (passed && nanoTime - passedAt < gapNanos) {
      return false;
    }
    passed = true;
    passedAt = nanoTime;
    return true;
  }

  /** How long after {@code nanoTime} the next event may pass (zero: now). */
  public synchronized Duration remaining(long nanoTime) {
    return !passed ? Duration.ZERO : Duration.ofNanos(Math.max(0, gapNanos - (nanoTime - passedAt)));
  }
}
