package org.cairn.tracker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import org.cairn.tracker.api.HttpApiServer;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.service.TrackerConfig;
import org.cairn.tracker.service.TrackerServices;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tracker daemon, a lone tracker: store, {@link TrackerServices} and HTTP API, with an explicit
 * lifecycle (NEW -> RUNNING -> CLOSED). {@link #close()} is idempotent and stops the API first, then
 * the background tasks, then the store. A member of a replicated group is {@code group.TrackerMember}.
 */
public final class Tracker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Tracker.class);

  private final TrackerStore store;
  private final TrackerServices services;
  private final HttpApiServer server;
  private boolean closed;
  private final boolean tls;

  public Tracker(TrackerConfig config, Clock clock) throws IOException, InterruptedException {
    this.tls = config.tls();
    store = TrackerStore.open(config.dataDir().resolve("db"));
    TrackerServices svc = null;
    try {
      svc = new TrackerServices(config, clock, store);
      server = new HttpApiServer(config.listen(), svc.api(), svc.ca() == null ? null : org.cairn.tracker.tls.HttpsContext.of(svc.ca(), config.dataDir()));
      svc.membership().allowForOwnDelay(server::lagMillis); // heartbeats its loops take late do not make donors DOWN
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (svc != null) {
        svc.close();
      }
      store.close();
      throw e;
    }
    services = svc;
    services.api().setSelf("tracker", config.listen().host() + ":" + server.port());
    LOG.info("tracker listening on {}:{} (heartbeat interval {} ms, peer timeout {} ms, history slot {} ms)",
        config.listen().host(), server.port(), config.heartbeatInterval().toMillis(), config.peerTimeout().toMillis(),
        config.historySlot().toMillis());
  }

  public int port() {
    return server.port();
  }

  /** The URL the API is served at, as peers and clients write it. */
  public String url(String host) {
    return (tls ? "https://" : "http://") + host + ":" + server.port();
  }

  public Membership membership() {
    return services.membership();
  }

  /** {@code --status-page}: whether the page's reads need no token, and whether they then show app names. */
  public void setStatusPagePublic(boolean open, boolean apps) {
    services.api().setStatusPagePublic(open, apps);
  }

  public RepairService repair() {
    return services.repair();
  }

  public History history() {
    return services.history();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.close();
    services.close();
    store.close();
    LOG.info("tracker stopped");
  }
}
