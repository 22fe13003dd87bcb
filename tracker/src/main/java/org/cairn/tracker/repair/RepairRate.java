package org.cairn.tracker.repair;

import java.util.ArrayDeque;

/**
 * How fast repair has been rebuilding pieces lately: bytes repaired per second over about the last
 * {@code windowMillis}, from the running total sampled at each scan. With the bytes still to rebuild
 * it gives the status page's ETA.
 */
final class RepairRate {
  private final long windowMillis;
  /** (time, repaired bytes so far), oldest first; the oldest is the window's baseline. */
  private final ArrayDeque<long[]> samples = new ArrayDeque<>();

  RepairRate(long windowMillis) {
    this.windowMillis = windowMillis;
  }

  void sample(long now, long repairedBytes) {
    samples.addLast(new long[] {now, repairedBytes});
    // keep one sample at least a window old as the baseline, drop the ones before it
    while (samples.size() > 2) {
      long[] second = samples.stream().skip(1).findFirst().orElseThrow();
      if (now - second[0] < windowMillis) {
        break;
      }
      samples.removeFirst();
    }
  }

  /** Bytes per second since the baseline; 0 with less than a second of samples or nothing repaired. */
  double bytesPerSecond(long now, long repairedBytes) {
    long[] base = samples.peekFirst();
    if (base == null || now - base[0] < 1000) {
      return 0;
    }
    return Math.max(0, repairedBytes - base[1]) * 1000.0 / (now - base[0]);
  }

  /** Seconds to rebuild {@code backlogBytes} at the recent rate, or null when nothing is to rebuild or nothing moves. */
  Long etaSeconds(long backlogBytes, long now, long repairedBytes) {
    double rate = bytesPerSecond(now, repairedBytes);
    if (backlogBytes <= 0 || rate <= 0) {
      return null;
    }
    return (long) Math.ceil(backlogBytes / rate);
  }
}
