package org.cairn.peer.load;

import java.util.function.LongSupplier;

/*
 * The load monitor's fallback where the data directory's device is not in /proc/diskstats: the
 * peer's own I/O rate against the disk's capacity. The capacity starts at the configured figure and
 * is raised to the highest rate actually observed (a disk that sustained it can do it), so the
 * estimate converges to the measured capacity; other programs' I/O on the same disk is invisible
 * here, which is why diskstats is preferred.
 */
public final class OwnIoLoad {
  private final LongSupplier ioBytes;
  private double capacity;
  private long lastBytes = -1;
  private long lastMillis;

  public OwnIoLoad(LongSupplier ioBytes, double initialCapacityBytesPerSecond) {
    if (!(initialCapacityBytesPerSecond > 0)) {
      throw new IllegalArgumentException("I/O capacity must be positive, was " + initialCapacityBytesPerSecond);
    }
    this.ioBytes = ioBytes;
    this.capacity = initialCapacityBytesPerSecond;
  }

  /** Busy fraction in [0, 1] since the previous call (0 on the first). */
  public double sample(long nowMillis) {
    long bytes = ioBytes.getAsLong();
    double busy = 0;
    if (lastBytes >= 0 && nowMillis > lastMillis) {
      double rate = (bytes - lastBytes) * 1000.0 / (nowMillis - lastMillis);
      capacity = Math.max(capacity, rate);
      busy = rate / capacity;
    }
    lastBytes = bytes;
    lastMillis = nowMillis;
    return busy;
  }

  public double capacity() {
    return capacity;
  }
}
