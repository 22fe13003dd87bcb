package org.cairn.peer.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the store's I/O has cost since it opened: bytes read and written (the load monitor's fallback
 * measure), the disk's write rate ({@link WriteRate}, sampled on the heartbeat), and the durable
 * writes (a segment sync and a synced index write each), logged at close: per-PUT costs are what
 * a donor pays beyond the bytes.
 */
final class IoCounters {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FragmentStore.class);

  private final AtomicLong ioBytes = new AtomicLong();
  private final AtomicLong durableWrites = new AtomicLong();
  private final AtomicLong fragmentsWritten = new AtomicLong();
  private final AtomicLong bytesWritten = new AtomicLong();
  /** Forgotten after 10 minutes without enough writes to renew it. */
  private final WriteRate writeRate = new WriteRate(10 * 60_000L);

  void beginWrite() {
    writeRate.begin(System.nanoTime());
  }

  /** A write of {@code fragments} ({@code bytes}) ended; only a durable one counts. */
  void endWrite(boolean durable, long bytes, int fragments) {
    writeRate.end(System.nanoTime(), durable ? bytes : 0);
    if (durable) {
      ioBytes.addAndGet(bytes);
      durableWrites.incrementAndGet();
      fragmentsWritten.addAndGet(fragments);
      bytesWritten.addAndGet(bytes);
    }
  }

  void read(long bytes) {
    ioBytes.addAndGet(bytes);
  }

  long bytesWritten() {
    return bytesWritten.get();
  }

  long durableWrites() {
    return durableWrites.get();
  }

  long ioBytes() {
    return ioBytes.get();
  }

  double sampleWriteRate() {
    return writeRate.sample(System.nanoTime(), System.currentTimeMillis());
  }

  void logTotals() {
    if (durableWrites.get() > 0) {
      LOG.info("wrote {} fragments ({} bytes) in {} durable writes since opening (each a segment sync and a synced index write)",
          fragmentsWritten.get(), bytesWritten.get(), durableWrites.get());
    }
  }
}
