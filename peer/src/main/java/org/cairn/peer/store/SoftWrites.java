package org.cairn.peer.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/*
 * The two-level scheme's soft level: a soft PUT is acknowledged once its bytes are in the page cache
 * and its index entries in RocksDB's unsynced log; this class numbers soft writes and makes them
 * durable in the background (segments synced, then the index's log), every interval. A writer gets
 * the sequence number its write will be durable at; the peer tells the tracker, at each heartbeat,
 * its boot id and the highest number made durable, so the tracker knows when a version written soft
 * is on disk everywhere.
 *
 * The boot id names one run of the store: a clean close makes everything durable and keeps the boot
 * id and number in soft.state, so the next run continues them; after a crash the file is absent, the
 * boot id is new, and the tracker treats what was still soft under the old id as lost.
 */
final class SoftWrites implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SoftWrites.class);

  /** What makes every write so far durable. */
  interface Flush {
    void run() throws IOException;
  }

  /** A boot id and the highest soft write number durable under it. */
  record State(long boot, long durable) {}

  private final Path stateFile;
  private final Flush flush;
  private final long boot;
  private final AtomicLong written = new AtomicLong();
  private volatile long durable;
  private final ScheduledExecutorService flusher;

  SoftWrites(Path stateFile, Duration interval, Flush flush) throws IOException {
    this.stateFile = stateFile;
    this.flush = flush;
    State kept = read(stateFile);
    if (kept != null) {
      boot = kept.boot();
      written.set(kept.durable());
      durable = kept.durable();
      Files.delete(stateFile); // from now on a crash must look like one
    } else {
      long b;
      do {
        b = new SecureRandom().nextLong() & Long.MAX_VALUE;
      } while (b == 0);
      boot = b;
    }
    flusher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "soft-writes");
      t.setDaemon(true);
      return t;
    });
    long ms = Math.max(10, interval.toMillis());
    flusher.scheduleWithFixedDelay(this::flushQuietly, ms, ms, TimeUnit.MILLISECONDS);
  }

  /** Numbers a soft write that has just been written (not yet durable); returns its number. */
  long written() {
    return written.incrementAndGet();
  }

  State state() {
    return new State(boot, durable);
  }

  /** Makes every soft write so far durable now. */
  synchronized void flushNow() throws IOException {
    long upTo = written.get(); // writes numbered so far have completed their (unsynced) I/O
    if (upTo > durable) {
      flush.run();
      durable = upTo;
    }
  }

  private void flushQuietly() {
    try {
      flushNow();
    } catch (IOException | RuntimeException e) {
      LOG.warn("making soft writes durable failed (tried again in the next interval): {}", e.getMessage());
    }
  }

  /** Stops the background flushes, makes everything durable and keeps the state for the next run. */
  @Override
  public void close() throws IOException {
    flusher.shutdownNow();
    try {
      flusher.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flushNow();
    Path tmp = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
    Files.writeString(tmp, Long.toHexString(boot) + " " + durable + "\n", StandardCharsets.UTF_8);
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(tmp, stateFile, StandardCopyOption.ATOMIC_MOVE);
  }

  private static State read(Path file) {
    try {
      if (!Files.exists(file)) {
        return null;
      }
      String[] f = Files.readString(file, StandardCharsets.UTF_8).strip().split(" ");
      return new State(Long.parseUnsignedLong(f[0], 16), Long.parseLong(f[1]));
    } catch (IOException | RuntimeException e) {
      LOG.warn("ignoring an unreadable {} (soft writes start a new boot id): {}", file, e.getMessage());
      return null;
    }
  }
}
