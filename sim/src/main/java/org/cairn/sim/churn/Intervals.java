package org.cairn.sim.churn;

import java.util.Arrays;

/** Disjoint-or-overlapping [start, end) intervals of simulated milliseconds, sorted by start; which cover a moment. */
final class Intervals {
  static final Intervals NONE = new Intervals(new long[0]);

  /** start0, end0, start1, end1, ... sorted by start. */
  private final long[] bounds;

  Intervals(long[] bounds) {
    this.bounds = bounds;
  }

  boolean covers(long t) {
    for (int i = 0; i < bounds.length; i += 2) {
      if (bounds[i] > t) {
        return false;
      }
      if (t < bounds[i + 1]) {
        return true;
      }
    }
    return false;
  }

  /** start0, end0, start1, end1, ... sorted by start (a copy). */
  long[] bounds() {
    return bounds.clone();
  }

  int count() {
    return bounds.length / 2;
  }

  /** Builds from an unordered list of starts and ends. */
  static Intervals of(long[] starts, long[] ends, int n) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(starts[a], starts[b]));
    long[] bounds = new long[2 * n];
    for (int i = 0; i < n; i++) {
      bounds[2 * i] = starts[order[i]];
      bounds[2 * i + 1] = ends[order[i]];
    }
    return new Intervals(bounds);
  }
}
