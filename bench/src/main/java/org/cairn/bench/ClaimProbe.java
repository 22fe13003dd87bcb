package org.cairn.bench;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.core.api.TrackerClient;

/**
 * Claims one repair job at a time, every {@code pauseMillis}, as the live holders given (in turn), and keeps the
 * slowest answer: how long a peer's claim waits while the tracker works out what to repair ({@link CatalogScale}).
 * The jobs are never reported: the tracker times them out.
 */
final class ClaimProbe implements AutoCloseable {
  private final TrackerClient tracker;
  private final List<String> claimers;
  private final long pauseMillis;
  private final AtomicLong slowestNanos = new AtomicLong();
  private final AtomicLong claims = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "claim-probe");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean stopped;
  /** When the claim under way was sent (System.nanoTime), or 0: one still waiting counts as the slowest so far. */
  private volatile long sentAt;

  ClaimProbe(TrackerClient tracker, List<String> claimers, long pauseMillis) {
    if (claimers.isEmpty()) {
      throw new IllegalArgumentException("a claim probe needs at least one live holder");
    }
    this.tracker = tracker;
    this.claimers = List.copyOf(claimers);
    this.pauseMillis = pauseMillis;
  }

  void start() {
    thread.execute(this::run);
  }

  private void run() {
    for (int i = 0; !stopped; i++) {
      long t0 = System.nanoTime();
      sentAt = t0;
      try {
        tracker.claimRepairs(claimers.get(i % claimers.size()), 1);
        claims.incrementAndGet();
      } catch (IOException e) {
        failures.incrementAndGet();
      }
      sentAt = 0;
      long took = System.nanoTime() - t0;
      slowestNanos.accumulateAndGet(took, Math::max);
      try {
        Thread.sleep(pauseMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** The slowest claim's time, counting one still unanswered for as long as it has waited. */
  double slowestSeconds() {
    long waiting = sentAt;
    long slowest = Math.max(slowestNanos.get(), waiting == 0 ? 0 : System.nanoTime() - waiting);
    return Math.round(slowest / 1e7) / 100.0;
  }

  long claims() {
    return claims.get();
  }

  long failures() {
    return failures.get();
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    thread.shutdownNow();
    thread.awaitTermination(1, TimeUnit.MINUTES);
  }
}
