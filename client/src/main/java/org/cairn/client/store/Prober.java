package org.cairn.client.store;

import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.member.BandwidthReport;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FrameType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Active bandwidth measurement (FALCON §3.2.2): the passive MABw only knows hosts this client has
 * sent to, so a donor never used (a laptop on DSL, say) would be ranked with the default bandwidth.
 * Before a store the client probes the placed hosts and alternates whose measurement is missing or
 * older than the probe age: after a PING (round trip, and the connection's authentication), a
 * PROBE request carrying PROBE_BYTES of filler, answered with an empty payload, times the upload
 * direction, the one a store uses. Results go to the tracker like passive ones. Probes run in
 * parallel and are bounded by a timeout: a host too slow to finish counts as at most
 * PROBE_BYTES / timeout.
 */
final class Prober {
  private static final Logger LOG = LoggerFactory.getLogger(Prober.class);
  static final int PROBE_BYTES = 1 << 20;
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(4);

  private final TrackerClient tracker;
  private final PeerClient peers;
  private final String client;

  Prober(TrackerClient tracker, PeerClient peers, String client) {
    this.tracker = tracker;
    this.peers = peers;
    this.client = client;
  }

  /** Probes the hosts and alternates of a placement whose measurement is missing or older than {@code after}. */
  List<String> probeStale(PlacementAnswer placement, Duration after) {
    Map<String, String> stale = new LinkedHashMap<>();
    for (List<PlacementAnswer.PlacedHost> part : List.of(placement.hosts(), placement.alternates())) {
      for (PlacementAnswer.PlacedHost h : part) {
        if (h.address() != null && (h.bandwidthAgeSeconds() == null || h.bandwidthAgeSeconds() > after.toSeconds())) {
          stale.put(h.id(), h.address());
        }
      }
    }
    return probe(stale);
  }

  /** Probes every peer that accepts writes (the "pessimistic" baseline: re-measure before every store). */
  List<String> probeAll() throws IOException {
    Map<String, String> all = new LinkedHashMap<>();
    for (PeerView p : tracker.peers()) {
      if (p.state().equals("RUNNING") || p.state().equals("LOADED")) {
        all.put(p.id(), p.address());
      }
    }
    return probe(all);
  }

  /** Probes in parallel and reports; returns "id bytes/s" for each host measured. */
  private List<String> probe(Map<String, String> hosts) {
    if (hosts.isEmpty()) {
      return List.of();
    }
    // one thread per host (the common pool has a single thread on 2 cores: probes would run one by one)
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(Math.min(hosts.size(), 32),
        org.cairn.core.log.CommandContext.threads("cairn-probe"));
    try {
      List<CompletableFuture<String>> runs = new ArrayList<>();
      for (Map.Entry<String, String> h : hosts.entrySet()) {
        runs.add(CompletableFuture.supplyAsync(() -> probeOne(h.getKey(), h.getValue()), pool));
      }
      List<String> out = new ArrayList<>();
      for (CompletableFuture<String> r : runs) {
        String s = r.join();
        if (s != null) {
          out.add(s);
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private String probeOne(String id, String address) {
    try {
      peers.ping(address).get(PROBE_TIMEOUT.toMillis() + peers.timeout().toMillis() * 2, TimeUnit.MILLISECONDS); // connects
      long t0 = System.nanoTime();
      peers.ping(address).get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      long rtt = System.nanoTime() - t0;
      io.netty.buffer.ByteBuf payload = Unpooled.buffer(4 + PROBE_BYTES).writeInt(0).writeZero(PROBE_BYTES);
      long t1 = System.nanoTime();
      double bps;
      try {
        peers.call(address, FrameType.PROBE, payload).get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).release();
        long nanos = Math.max(System.nanoTime() - t1 - rtt, 1_000);
        bps = PROBE_BYTES / (nanos / 1e9);
      } catch (java.util.concurrent.TimeoutException e) {
        bps = PROBE_BYTES / (double) PROBE_TIMEOUT.toSeconds();
      }
      tracker.reportBandwidth(new BandwidthReport(client, id, bps, "probe"));
      LOG.debug("probed {}: {} MB/s", id, String.format("%.1f", bps / 1e6));
      return id + " " + Math.round(bps);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      // an unreachable host is the heartbeats' business; placement will learn it is DOWN
      LOG.debug("probe of {} failed: {}", id, e.getMessage());
      return null;
    }
  }
}
