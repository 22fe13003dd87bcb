package org.cairn.client.store;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.member.BandwidthReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passive available-bandwidth measurement (FALCON §3.2.2): per host, the bytes a store's piece writer had
 * acknowledged per second during which PUTs were outstanding, over the traffic since the last report (MABw),
 * told to the tracker if at least 1 MiB moved. The transfer phase reports every {@link #PERIOD}; the commit
 * phase reports the rest at the store's end.
 */
final class TrafficReports {
  /** MABw is reported this often while a store is active (FALCON §3.2.2: every 10 s). */
  static final Duration PERIOD = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(TrafficReports.class);
  private static final long LEAST_BYTES = 1 << 20;

  private final TrackerClient tracker;
  private final String client;
  private final PieceWriter writer;
  /** What each host's last report counted (guarded by this). */
  private final Map<String, HostTraffic.Traffic> reported = new HashMap<>();

  TrafficReports(TrackerClient tracker, String client, PieceWriter writer) {
    this.tracker = tracker;
    this.client = client;
    this.writer = writer;
  }

  /** Reports each host's traffic since its last report, where enough moved; a report that fails is dropped. */
  synchronized void report() {
    for (Map.Entry<String, HostTraffic.Traffic> e : writer.traffic().entrySet()) {
      HostTraffic.Traffic before = reported.get(e.getKey());
      long bytes = e.getValue().bytes - (before == null ? 0 : before.bytes);
      long nanos = e.getValue().busyNanos - (before == null ? 0 : before.busyNanos);
      if (bytes >= LEAST_BYTES && nanos > 0) {
        try {
          tracker.reportBandwidth(new BandwidthReport(client, e.getKey(), bytes / (nanos / 1e9), null));
          reported.put(e.getKey(), e.getValue());
        } catch (IOException | RuntimeException ex) {
          // a measurement that does not reach the tracker is not worth failing a store for
          LOG.debug("bandwidth report for {} not delivered: {}", e.getKey(), ex.getMessage());
        }
      }
    }
  }
}
