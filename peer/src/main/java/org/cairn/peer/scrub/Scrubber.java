package org.cairn.peer.scrub;

import java.io.Closeable;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.cairn.core.CorruptDataException;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.peer.load.Throttle;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Scrubbing (ARCHITECTURE.md, "Repair"): re-reads every stored fragment at a low rate and verifies it (the
 * blob checksum and the fragment's own CRC32C of header and payload). The store drops a fragment that
 * fails and its corruption listener reports it to the tracker, which has it rebuilt elsewhere.
 *
 * Rate: one full pass per `period`, i.e. used bytes / period, at least 64 KiB/s and at most
 * `maxRate`. Scrubbing waits while the donor is busy (LOADED, BUSY or paused) and resumes where it
 * stopped. A pass that finishes early waits for the period to end before the next one starts.
 */
public final class Scrubber implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);
  private static final long MIN_RATE = 64 * 1024;

  private final FragmentStore store;
  private final Duration period;
  private final long maxRate;
  private final BooleanSupplier idle;
  private final Thread thread;
  private volatile boolean closed;
  private long passes;

  public Scrubber(FragmentStore store, Duration period, long maxRate, BooleanSupplier idle) {
    if (period.toMillis() < 1000) {
      throw new IllegalArgumentException("scrub period must be at least 1s, was " + period.toMillis() + "ms");
    }
    this.store = store;
    this.period = period;
    this.maxRate = maxRate;
    this.idle = idle;
    this.thread = new Thread(this::run, "scrubber");
    thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  private void run() {
    try {
      while (!closed) {
        long start = System.nanoTime();
        long rate = Math.min(Math.max(MIN_RATE, (long) (store.usedBytes() / Math.max(1.0, period.toSeconds()))),
            maxRate > 0 ? maxRate : Long.MAX_VALUE);
        Throttle throttle = new Throttle(rate);
        long fragments = 0;
        long bytes = 0;
        long bad = 0;
        FragmentKey after = null;
        List<FragmentKey> page;
        while (!closed && !(page = store.inventory(after, 1000)).isEmpty()) {
          for (FragmentKey k : page) {
            while (!closed && !idle.getAsBoolean()) {
              TimeUnit.SECONDS.sleep(1); // the donor is busy: scrubbing waits
            }
            if (closed) {
              return;
            }
            try {
              byte[] v = store.get(k);
              if (v != null) {
                fragments++;
                bytes += v.length;
                throttle.acquire(v.length);
              }
            } catch (CorruptDataException e) {
              bad++;
              LOG.warn("scrub: {}", e.getMessage());
            } catch (java.io.IOException e) {
              LOG.warn("scrub: reading {} failed: {}", k, e.getMessage());
            }
          }
          after = page.get(page.size() - 1);
        }
        passes++;
        double seconds = (System.nanoTime() - start) / 1e9;
        if (fragments > 0 || bad > 0) {
          LOG.info("scrub pass {}: verified {} fragments ({} bytes) in {} s at up to {} bytes/s; {} corrupt", passes, fragments, bytes,
              String.format("%.1f", seconds), rate, bad);
        }
        long rest = period.toNanos() - (System.nanoTime() - start);
        if (rest > 0) {
          TimeUnit.NANOSECONDS.sleep(rest);
        }
      }
    } catch (InterruptedException e) {
      // closing
    } catch (RuntimeException e) {
      if (!closed) {
        LOG.error("scrubber stopped", e);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
