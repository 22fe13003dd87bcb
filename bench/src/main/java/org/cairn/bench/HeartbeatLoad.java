package org.cairn.bench;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.security.GridToken;

/*
 * Open-loop heartbeat load against a running tracker: `peers` simulated peers register, then
 * heartbeats are fired on a fixed schedule at `rate` per second regardless of how fast answers come
 * (so a slow tracker cannot hide queueing: latency is measured from the moment each heartbeat was
 * due, not from when it was sent). At most `maxInFlight` requests are outstanding; heartbeats due
 * while the window is full count as late and are sent when it frees.
 */
public final class HeartbeatLoad {
  private final TrackerClient tracker;

  public HeartbeatLoad(URI tracker, GridToken token) {
    this.tracker = new TrackerClient(tracker, token, Duration.ofSeconds(10));
  }

  public StageResult run(int peers, int rate, double seconds, int maxInFlight) throws Exception {
    for (int i = 0; i < peers; i++) {
      tracker.register(new RegisterRequest("load-" + i, "127.0.0.1:" + (20000 + i % 40000), "RUNNING",
          1_000_000_000L, 0, 2_000_000_000L, 0, false, "load"));
    }
    long total = Math.round(rate * seconds);
    long[] latencies = new long[(int) total];
    AtomicLong errors = new AtomicLong();
    AtomicLong late = new AtomicLong();
    AtomicLongArray done = new AtomicLongArray(1);
    Semaphore window = new Semaphore(maxInFlight);
    long start = System.nanoTime();
    long interval = 1_000_000_000L / rate;
    CompletableFuture<?>[] last = new CompletableFuture<?>[1];
    for (long n = 0; n < total; n++) {
      long due = start + n * interval;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      if (!window.tryAcquire()) {
        late.incrementAndGet();
        window.acquire();
      }
      int idx = (int) n;
      HeartbeatRequest beat = new HeartbeatRequest("RUNNING", 1_000_000_000L - n, n, 0, false);
      last[0] = tracker.heartbeatAsync("load-" + (n % peers), beat)
          .whenComplete((status, e) -> {
            latencies[idx] = System.nanoTime() - due;
            if (e != null || status != 200) {
              errors.incrementAndGet();
            }
            done.incrementAndGet(0);
            window.release();
          });
    }
    window.acquire(maxInFlight);
    double elapsed = (System.nanoTime() - start) / 1e9;
    long[] sorted = latencies.clone();
    Arrays.sort(sorted);
    return new StageResult("heartbeats")
        .with("peers", peers)
        .with("targetPerSec", rate)
        .with("achievedPerSec", Math.round(total / elapsed * 10) / 10.0)
        .with("sent", total)
        .with("errors", errors.get())
        .with("late", late.get())
        .with("p50Ms", millis(sorted, 0.50))
        .with("p99Ms", millis(sorted, 0.99))
        .with("p999Ms", millis(sorted, 0.999))
        .with("maxMs", sorted.length == 0 ? 0.0 : sorted[sorted.length - 1] / 1e6)
        .with("seconds", Math.round(elapsed * 10) / 10.0);
  }

  /** The q-quantile of sorted nanosecond latencies, in ms. */
  static double millis(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }
}
