package org.cairn.tracker.api.route;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What peers' heartbeats say of their soft writes (their boot id and the highest soft write made durable), handed to the
 * catalog on a thread of its own: a heartbeat is answered on the network thread (docs/simulation.md "Heartbeats"), and
 * the catalog's update reads the store. A report that waits is replaced by the same peer's next one: each says all
 * there is (the newest durable write under the newest boot), so only the newest matters.
 */
final class SoftReports {
  private static final Logger LOG = LoggerFactory.getLogger(SoftReports.class);
  /** One thread for every tracker in this process: the reports are rare work (only peers with soft writes held). */
  private static final ExecutorService THREAD = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "soft-reports");
    t.setDaemon(true);
    return t;
  });

  /** Where a report goes: the catalog's {@code SoftVersions.onHeartbeat}. */
  interface Sink {
    void report(String peer, String boot, long durable) throws IOException;
  }

  private record Report(String boot, long durable) {}

  private final Sink sink;
  private final Executor executor;
  private final ConcurrentHashMap<String, Report> waiting = new ConcurrentHashMap<>();

  SoftReports(Sink sink) {
    this(sink, THREAD);
  }

  SoftReports(Sink sink, Executor executor) {
    this.sink = sink;
    this.executor = executor;
  }

  /** Hands peer {@code peer}'s report on, replacing one of its that still waits. */
  void report(String peer, String boot, long durable) {
    if (waiting.put(peer, new Report(boot, durable)) == null) {
      executor.execute(() -> deliver(peer));
    }
  }

  private void deliver(String peer) {
    Report r = waiting.remove(peer);
    if (r == null) {
      return;
    }
    try {
      sink.report(peer, r.boot(), r.durable());
    } catch (IOException | RuntimeException e) {
      // the peer's next heartbeat reports it again
      LOG.warn("peer {}'s soft writes (boot {}, durable {}) were not taken: {}", peer, r.boot(), r.durable(), e.toString());
    }
  }
}
