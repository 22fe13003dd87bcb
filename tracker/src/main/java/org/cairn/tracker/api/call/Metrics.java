package org.cairn.tracker.api.call;

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
  private volatile Supplier<org.cairn.core.api.status.DurabilityView> durability = () -> null;
  private volatile java.util.function.LongSupplier walks;
  private volatile java.util.function.LongSupplier folds;
  private final LongAdder commits = new LongAdder();
  private final LongAdder manifestReads = new LongAdder();

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

  public void heartbeat() {
    heartbeats.increment();
  }

  /** Where the durability gauges come from: the repair scan's last result (no scan per scrape). */
  public void setDurability(Supplier<org.cairn.core.api.status.DurabilityView> durability) {
    this.durability = durability;
  }

  /** Where the repair scan's counters come from: scans that walked the chunk index, scans that folded commits in. */
  public void setScans(java.util.function.LongSupplier walks, java.util.function.LongSupplier folds) {
    this.walks = walks;
    this.folds = folds;
  }

  public void committed() {
    commits.increment();
  }

  public void manifestRead() {
    manifestReads.increment();
  }

  /**
   * One request answered: {@code route} is its endpoint's template ("GET /api/v1/peers/{id}") or
   * "unmatched", never text from the request, so the label set stays small and holds nothing a caller wrote.
   */
  public void request(String route, int status, long nanos) {
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

  /** A label value as the Prometheus text format writes it: backslash, double quote and newline escaped. */
  public static String escape(String value) {
    StringBuilder sb = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  public String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("# HELP cairn_heartbeats_total Peer heartbeats received.\n# TYPE cairn_heartbeats_total counter\n");
    sb.append("cairn_heartbeats_total ").append(heartbeats.sum()).append('\n');
    sb.append("# HELP cairn_peers Peers by effective state.\n# TYPE cairn_peers gauge\n");
    for (Map.Entry<String, Long> e : peersByState.get().entrySet()) {
      sb.append("cairn_peers{state=\"").append(escape(e.getKey())).append("\"} ").append(e.getValue()).append('\n');
    }
    Map<String, Long> stalled = stalledByKind.get();
    if (!stalled.isEmpty()) {
      sb.append("# HELP cairn_repair_stalled_chunks Chunks repair cannot progress on, by reason.\n")
          .append("# TYPE cairn_repair_stalled_chunks gauge\n");
      for (Map.Entry<String, Long> e : stalled.entrySet()) {
        sb.append("cairn_repair_stalled_chunks{kind=\"").append(escape(e.getKey())).append("\"} ").append(e.getValue()).append('\n');
      }
    }
    org.cairn.core.api.status.DurabilityView d = durability.get();
    if (d != null) {
      sb.append("# HELP cairn_chunks Chunks in the index by health at the last repair scan.\n# TYPE cairn_chunks gauge\n");
      sb.append("cairn_chunks{health=\"healthy\"} ").append(d.healthy()).append('\n');
      sb.append("cairn_chunks{health=\"degraded\"} ").append(d.degraded()).append('\n');
      sb.append("cairn_chunks{health=\"lost\"} ").append(d.lost()).append('\n');
      sb.append("# HELP cairn_repair_queue Chunks waiting for repair.\n# TYPE cairn_repair_queue gauge\n");
      sb.append("cairn_repair_queue ").append(d.repairQueue()).append('\n');
      sb.append("# HELP cairn_repair_in_progress Repair jobs peers are running.\n# TYPE cairn_repair_in_progress gauge\n");
      sb.append("cairn_repair_in_progress ").append(d.repairing()).append('\n');
      sb.append("# HELP cairn_repaired_bytes_total Bytes of pieces rebuilt by repair.\n# TYPE cairn_repaired_bytes_total counter\n");
      sb.append("cairn_repaired_bytes_total ").append(d.repairedBytes()).append('\n');
      sb.append("# HELP cairn_repair_failures_total Repair jobs that failed.\n# TYPE cairn_repair_failures_total counter\n");
      sb.append("cairn_repair_failures_total ").append(d.failedRepairs()).append('\n');
      sb.append("# HELP cairn_stored_bytes Bytes all pieces of all indexed chunks take on the peers.\n# TYPE cairn_stored_bytes gauge\n");
      sb.append("cairn_stored_bytes ").append(d.neededBytes()).append('\n');
      sb.append("# HELP cairn_repair_backlog_bytes Bytes of pieces repair has yet to rebuild (chunks past their grace).\n");
      sb.append("# TYPE cairn_repair_backlog_bytes gauge\n");
      sb.append("cairn_repair_backlog_bytes ").append(d.backlogBytes()).append('\n');
    }
    if (walks != null) {
      sb.append("# HELP cairn_repair_walks_total Repair scans that walked the whole chunk index.\n")
          .append("# TYPE cairn_repair_walks_total counter\n");
      sb.append("cairn_repair_walks_total ").append(walks.getAsLong()).append('\n');
      sb.append("# HELP cairn_repair_folds_total Repair scans that folded commits into the last walk instead.\n")
          .append("# TYPE cairn_repair_folds_total counter\n");
      sb.append("cairn_repair_folds_total ").append(folds.getAsLong()).append('\n');
    }
    sb.append("# HELP cairn_commits_total Versions (and checkpoint set parts) committed.\n# TYPE cairn_commits_total counter\n");
    sb.append("cairn_commits_total ").append(commits.sum()).append('\n');
    sb.append("# HELP cairn_manifest_reads_total Manifests handed out (fetches, verifies, restores).\n")
        .append("# TYPE cairn_manifest_reads_total counter\n");
    sb.append("cairn_manifest_reads_total ").append(manifestReads.sum()).append('\n');
    sb.append("# HELP cairn_http_requests_total API requests by route and status.\n# TYPE cairn_http_requests_total counter\n");
    requests.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      String[] parts = e.getKey().split("\u0000");
      sb.append("cairn_http_requests_total{route=\"").append(escape(parts[0])).append("\",status=\"").append(parts[1]).append("\"} ")
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
