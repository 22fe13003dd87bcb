package org.cairn.tracker.api;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The tracker's metrics in Prometheus text format: heartbeats (a counter; rate() gives heartbeats/s),
 * requests by route and a request-latency histogram, peers by state and stalled repairs by kind (gauges
 * read at scrape time).
 */
public final class Metrics {
  private static final double[] BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1};

  private final LongAdder heartbeats = new LongAdder();
  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
  private final AtomicLong[] latencyBuckets = new AtomicLong[BUCKETS.length + 1];
  private final LongAdder latencyCount = new LongAdder();
  private final java.util.concurrent.atomic.DoubleAdder latencySum = new java.util.concurrent.atomic.DoubleAdder();
  private final Supplier<Map<String, Long>> peersByState;
  private final Supplier<Map<String, Long>> stalledByKind;

  public Metrics(Supplier<Map<String, Long>> peersByState) {
    this(peersByState, Map::of);
  }

  /** {@code stalledByKind}: chunks repair cannot progress on, by a bounded kind (hosts, grace, lost, ...). */
  public Metrics(Supplier<Map<String, Long>> peersByState, Supplier<Map<String, Long>> stalledByKind) {
    this.peersByState = peersByState;
    this.stalledByKind = stalledByKind;
    for (int i = 0; i < latencyBuckets.length; i++) {
      latencyBuckets[i] = new AtomicLong();
    }
  }

  void heartbeat() {
    heartbeats.increment();
  }

  void request(String route, int status, long nanos) {
    requests.computeIfAbsent(route + "\u0000" + status, k -> new LongAdder()).increment();
    double seconds = nanos / 1e9;
    int i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]) {
      i++;
    }
    latencyBuckets[i].incrementAndGet();
    latencyCount.increment();
    latencySum.add(seconds);
  }

  String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("# HELP cairn_heartbeats_total Peer heartbeats received.\n# TYPE cairn_heartbeats_total counter\n");
    sb.append("cairn_heartbeats_total ").append(heartbeats.sum()).append('\n');
    sb.append("# HELP cairn_peers Peers by effective state.\n# TYPE cairn_peers gauge\n");
    for (Map.Entry<String, Long> e : peersByState.get().entrySet()) {
      sb.append("cairn_peers{state=\"").append(e.getKey()).append("\"} ").append(e.getValue()).append('\n');
    }
    Map<String, Long> stalled = stalledByKind.get();
    if (!stalled.isEmpty()) {
      sb.append("# HELP cairn_repair_stalled_chunks Chunks repair cannot progress on, by reason.\n")
          .append("# TYPE cairn_repair_stalled_chunks gauge\n");
      for (Map.Entry<String, Long> e : stalled.entrySet()) {
        sb.append("cairn_repair_stalled_chunks{kind=\"").append(e.getKey()).append("\"} ").append(e.getValue()).append('\n');
      }
    }
    sb.append("# HELP cairn_http_requests_total API requests by route and status.\n# TYPE cairn_http_requests_total counter\n");
    requests.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      String[] parts = e.getKey().split("\u0000");
      sb.append("cairn_http_requests_total{route=\"").append(parts[0]).append("\",status=\"").append(parts[1]).append("\"} ")
          .append(e.getValue().sum()).append('\n');
    });
    sb.append("# HELP cairn_http_request_seconds API request latency.\n# TYPE cairn_http_request_seconds histogram\n");
    long cumulative = 0;
    for (int i = 0; i < BUCKETS.length; i++) {
      cumulative += latencyBuckets[i].get();
      sb.append("cairn_http_request_seconds_bucket{le=\"").append(BUCKETS[i]).append("\"} ").append(cumulative).append('\n');
    }
    cumulative += latencyBuckets[BUCKETS.length].get();
    sb.append("cairn_http_request_seconds_bucket{le=\"+Inf\"} ").append(cumulative).append('\n');
    sb.append("cairn_http_request_seconds_sum ").append(latencySum.sum()).append('\n');
    sb.append("cairn_http_request_seconds_count ").append(latencyCount.sum()).append('\n');
    return sb.toString();
  }
}
