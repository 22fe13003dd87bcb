package org.cairn.peer.store;

/**
 * The rate at which this donor's disk takes Cairn's writes: fragment bytes made durable per second
 * of wall time during which at least one PUT was writing (appending and syncing). Concurrent PUTs
 * share one sync, so the busy time is the union of their intervals, not the sum, and two PUTs at
 * once are not counted as half the rate each.
 *
 * <p>Placement uses it beside the client's link measurement: a donor whose owner keeps its disk
 * busy may still be on a fast link, and then the disk is what a store waits for (the tau2
 * experiment in docs/benchmarks/journal.md). The peer folds what was written into the rate at each
 * heartbeat ({@link #sample}), once at least {@link #MIN_BYTES} were written, half old and half new;
 * a rate not renewed for {@code maxAgeMillis} is forgotten (0, unknown), so a donor that placement
 * stopped using because its disk was slow gets measured again.
 */
public final class WriteRate {
  /** Fewer bytes than this are too few to time: a few KB fit in the page cache whatever the disk. */
  public static final long MIN_BYTES = 1 << 20;

  private final long maxAgeMillis;
  private int writing;
  private long busySince;
  private long busyNanos;
  private long bytes;
  private double rate;
  private long measuredAt;

  public WriteRate(long maxAgeMillis) {
    this.maxAgeMillis = maxAgeMillis;
  }

  /** A write starts (at {@code nanos}, System.nanoTime()). */
  public synchronized void begin(long nanos) {
    if (writing++ == 0) {
      busySince = nanos;
    }
  }

  /** A write that began ends, having made {@code written} bytes durable (0 if it failed). */
  public synchronized void end(long nanos, long written) {
    if (writing == 0) {
      throw new IllegalStateException("end without begin");
    }
    bytes += written;
    if (--writing == 0) {
      busyNanos += nanos - busySince;
    }
  }

  /**
   * Folds the writes since the last fold into the rate, if there were enough, and returns the rate
   * in bytes per second: 0 when never measured or older than the maximum age.
   */
  public synchronized double sample(long nanos, long millis) {
    long busy = busyNanos;
    if (writing > 0) {
      busy += nanos - busySince;
    }
    if (bytes >= MIN_BYTES && busy > 0) {
      double now = bytes * 1e9 / busy;
      rate = rate > 0 ? (rate + now) / 2 : now;
      measuredAt = millis;
      bytes = 0;
      busyNanos = 0;
      if (writing > 0) {
        busySince = nanos;
      }
    }
    if (rate > 0 && millis - measuredAt > maxAgeMillis) {
      rate = 0;
    }
    return rate;
  }
}
