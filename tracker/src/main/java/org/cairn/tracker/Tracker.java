package org.cairn.tracker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cairn.core.availability.Crls;
import org.cairn.tracker.api.HttpApiServer;
import org.cairn.tracker.api.Metrics;
import org.cairn.tracker.api.PlacementService;
import org.cairn.tracker.api.TrackerApi;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.History;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tracker daemon: store, membership, history sampler and HTTP API, with an explicit lifecycle
 * (NEW -> RUNNING -> CLOSED). {@link #close()} is idempotent and stops the API first, then the
 * background tasks, then the store.
 */
public final class Tracker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Tracker.class);

  private final TrackerStore store;
  private final Membership membership;
  private final History history;
  private final EventLog events;
  private final RepairService repair;
  private final TrackerApi api;
  private final HttpApiServer server;
  private final ScheduledExecutorService scheduler;
  private boolean closed;
  private final boolean tls;

  public Tracker(TrackerConfig config, Clock clock) throws IOException, InterruptedException {
    this.tls = config.tls();
    store = TrackerStore.open(config.dataDir().resolve("db"));
    ScheduledExecutorService sched = null;
    HttpApiServer srv = null;
    try {
      events = new EventLog(clock, 1000);
      membership = new Membership(store, clock, config.peerTimeout(), events);
      history = new History(store, clock, config.historySlot(), config.historyRetention());
      PlacementService placement = new PlacementService(store, membership, history, clock, Crls.defaults(), config.historyWindow(),
          Duration.ofSeconds(10));
      Catalog catalog = new Catalog(store, clock, events, config.gcHold());
      repair = new RepairService(catalog, membership, placement, events, clock, new RepairService.Config(config.repairGrace(),
          config.repairInterval(), config.repairJobsPerPeer(), Duration.ofMinutes(2)));
      Metrics metrics = new Metrics(() -> TrackerApi.countByState(membership.peers()), repair::stalledByKind);
      metrics.setDurability(repair::lastDurability);
      org.cairn.tracker.tls.TrackerCa ca = config.tls() ? org.cairn.tracker.tls.TrackerCa.open(config.dataDir(), config.listen().host()) : null;
      org.cairn.tracker.auth.Credentials credentials = org.cairn.tracker.auth.Credentials.open(config.dataDir(), config.token(), clock);
      if (ca != null) {
        org.cairn.tracker.auth.Credentials.pinAdminToken(config.dataDir(), ca.pin());
      }
      api = new TrackerApi(credentials, membership, history, placement, metrics, clock,
          config.heartbeatInterval(), Crls.defaults(), catalog, repair, events);
      if (ca != null) {
        api.setPeerCertifier(ca);
      }
      api.setBackup(target -> org.cairn.tracker.store.TrackerBackup.write(store, config.dataDir(), target));
      sched = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tracker-scheduler");
        t.setDaemon(true);
        return t;
      });
      long check = Math.max(100, config.heartbeatInterval().toMillis() / 4);
      sched.scheduleWithFixedDelay(guard("failure detection", membership::detectFailures), check, check, TimeUnit.MILLISECONDS);
      long slot = config.historySlot().toMillis();
      sched.scheduleAtFixedRate(guard("history sampling", () -> history.sample(membership.peerStates(), membership.computeStates())),
          slot, slot, TimeUnit.MILLISECONDS);
      sched.scheduleWithFixedDelay(guard("purge-after policies", catalog::purgeExpired), 10, 10, TimeUnit.SECONDS);
      long setCheck = Math.min(10_000, Math.max(500, config.setTimeout().toMillis() / 4));
      sched.scheduleWithFixedDelay(guard("incomplete checkpoint sets", () -> catalog.sets().expire(config.setTimeout())), setCheck, setCheck,
          TimeUnit.MILLISECONDS);
      long scan = config.repairInterval().toMillis();
      sched.scheduleWithFixedDelay(guard("repair scan", repair::scan), scan, scan, TimeUnit.MILLISECONDS);
      sched.scheduleWithFixedDelay(guard("history pruning", () -> {
        int n = history.prune();
        if (n > 0) {
          LOG.info("pruned {} history blocks older than {}", n, config.historyRetention());
        }
      }), 1, 60, TimeUnit.MINUTES);
      srv = new HttpApiServer(config.listen(), api, ca == null ? null : tls(config, ca));
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (sched != null) {
        sched.shutdownNow();
      }
      store.close();
      throw e;
    }
    scheduler = sched;
    server = srv;
    api.setSelf("tracker", config.listen().host() + ":" + server.port());
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

  /**
   * The server's TLS context: the tracker's CA (made at the first start with TLS) and a fresh server
   * certificate; through OpenSSL (BoringSSL, netty-tcnative) where the platform has it, else the JDK.
   */
  private static io.netty.handler.ssl.SslContext tls(TrackerConfig config, org.cairn.tracker.tls.TrackerCa ca) throws IOException {
    io.netty.handler.ssl.SslProvider provider = io.netty.handler.ssl.OpenSsl.isAvailable() ? io.netty.handler.ssl.SslProvider.OPENSSL
        : io.netty.handler.ssl.SslProvider.JDK;
    LOG.info("TLS through {}; CA pin sha256:{} (in {}; token create appends it to tokens)", provider == io.netty.handler.ssl.SslProvider.OPENSSL
        ? "OpenSSL (" + io.netty.handler.ssl.OpenSsl.versionString() + ")" : "the JDK", ca.pin(), config.dataDir().resolve("ca.sha256"));
    return io.netty.handler.ssl.SslContextBuilder.forServer(ca.serverKey(), ca.chain()).sslProvider(provider)
        .protocols("TLSv1.3", "TLSv1.2").build();
  }

  public Membership membership() {
    return membership;
  }

  /** {@code --status-page}: whether the page's reads need no token, and whether they then show app names. */
  public void setStatusPagePublic(boolean open, boolean apps) {
    api.setStatusPagePublic(open, apps);
  }

  public RepairService repair() {
    return repair;
  }

  public History history() {
    return history;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.close();
    scheduler.shutdownNow();
    try {
      if (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.warn("background tasks did not stop within 5 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
    LOG.info("tracker stopped");
  }

  private interface Task {
    void run() throws Exception;
  }

  /** Runs a periodic task, logging failures instead of silently cancelling the schedule. */
  private static Runnable guard(String name, Task task) {
    return () -> {
      try {
        task.run();
      } catch (Exception e) {
        LOG.error("{} failed", name, e);
      }
    };
  }
}
