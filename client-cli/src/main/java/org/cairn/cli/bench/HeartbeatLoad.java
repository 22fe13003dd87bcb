package org.cairn.cli.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.cairn.core.security.GridToken;

/*
 * Open-loop heartbeat load against a running tracker: `peers` simulated peers register, then
 * heartbeats are fired on a fixed schedule at `rate` per second regardless of how fast answers come
 * (so a slow tracker cannot hide queueing: latency is measured from the moment each heartbeat was
 * due, not from when it was sent). At most `maxInFlight` requests are outstanding; heartbeats due
 * while the window is full count as late and are sent when it frees.
 */
public final class HeartbeatLoad {
  private final URI tracker;
  private final GridToken token;
  private final HttpClient http;

  public HeartbeatLoad(URI tracker, GridToken token) {
    this.tracker = tracker;
    this.token = token;
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  }

  public StageResult run(int peers, int rate, double seconds, int maxInFlight) throws Exception {
    for (int i = 0; i < peers; i++) {
      String body = "{\"id\":\"load-" + i + "\",\"address\":\"127.0.0.1:" + (20000 + i % 40000)
          + "\",\"state\":\"RUNNING\",\"freeBytes\":1000000000,\"quotaBytes\":2000000000}";
      HttpResponse<String> r = http.send(post("/api/v1/peers", body), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("registering simulated peer failed: " + r.statusCode() + " " + r.body());
      }
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
      String body = "{\"state\":\"RUNNING\",\"freeBytes\":" + (1_000_000_000L - n) + ",\"usedBytes\":" + n + "}";
      last[0] = http.sendAsync(post("/api/v1/peers/load-" + (n % peers) + "/heartbeat", body), HttpResponse.BodyHandlers.discarding())
          .whenComplete((r, e) -> {
            latencies[idx] = System.nanoTime() - due;
            if (e != null || r.statusCode() != 200) {
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

  private static double millis(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }

  private HttpRequest post(String path, String body) {
    return HttpRequest.newBuilder(tracker.resolve(path))
        .timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + token.bearerValue())
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }
}
