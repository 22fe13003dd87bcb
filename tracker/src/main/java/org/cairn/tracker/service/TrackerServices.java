package org.cairn.tracker.service;

import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cairn.core.availability.Crls;
import org.cairn.tracker.api.TrackerApi;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.CapacityHistory;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a tracker that serves the grid runs over its store: membership, history, placement, catalog,
 * repair, the API and their periodic tasks. A lone tracker runs it for its whole life; a member of a
 * replicated group while it leads (built from the store it has applied the group's log to, closed
 * when it stops leading). {@link #close()} stops the periodic tasks; it does not close the store.
 */
public final class TrackerServices implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerServices.class);

  private final Membership membership;
  private final History history;
  private final RepairService repair;
  private final TrackerApi api;
  private final org.cairn.tracker.tls.TrackerCa ca;
  private final org.cairn.tracker.auth.Credentials credentials;
  private final ScheduledExecutorService scheduler;
  /** Refreshes placement's CRLS scores ({@link PlacementService#refreshScores}). */
  private final ScheduledExecutorService scores;
  /** Runs the repair scans ({@link PacedScan}): a walk of a large index takes seconds, and holds up nothing else. */
  private final ScheduledExecutorService scans;
  private boolean closed;

  public TrackerServices(TrackerConfig config, Clock clock, TrackerStore store) throws IOException {
    EventLog events = new EventLog(clock, 1000, store);
    membership = new Membership(store, clock, config.peerTimeout(), events);
    history = new History(store, clock, config.historySlot(), config.historyRetention());
    PlacementService placement = new PlacementService(store, membership, history, clock, Crls.defaults(), config.historyWindow(),
        Duration.ofSeconds(10));
    Catalog catalog = new Catalog(store, clock, events, config.gcHold());
    repair = new RepairService(catalog, membership, placement, events, clock, new RepairService.Config(config.repairGrace(),
        config.repairInterval(), config.repairJobsPerPeer(), Duration.ofMinutes(2)));
    Metrics metrics = new Metrics(() -> TrackerApi.countByState(membership.peers()), repair::stalledByKind);
    metrics.setDurability(repair::lastDurability);
    metrics.setScans(repair::walks, repair::folds);
    ca = config.tls() ? org.cairn.tracker.tls.TrackerCa.open(config.dataDir(), config.listen().host()) : null;
    credentials = org.cairn.tracker.auth.Credentials.open(config.dataDir(), config.token(), clock);
    if (ca != null) {
      org.cairn.tracker.auth.Credentials.pinAdminToken(config.dataDir(), ca.pin());
    }
    api = new TrackerApi(credentials, membership, history, placement, metrics, clock,
        config.heartbeatInterval(), Crls.defaults(), catalog, repair, events);
    if (ca != null) {
      api.setPeerCertifier(ca);
    }
    api.setRecords(new org.cairn.tracker.catalog.CatalogRecords(store, catalog,
        org.cairn.tracker.auth.Credentials.catalogKey(config.dataDir())));
    api.setBackup(target -> org.cairn.tracker.store.TrackerBackup.write(store, config.dataDir(), target));
    scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "tracker-scheduler");
      t.setDaemon(true);
      return t;
    });
    ScheduledExecutorService sched = scheduler;
    scores = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "placement-scores");
      t.setDaemon(true);
      t.setPriority(Thread.MIN_PRIORITY);
      return t;
    });
    scans = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "repair-scan");
      t.setDaemon(true);
      return t;
    });
    PacedScan repairScans = new PacedScan(scans, guard("repair scan", repair::scan), config.repairInterval().toMillis());
    repair.scanInBackground(() -> repairScans.soon(0)); // a claim or read of durability never waits for a walk
    long check = Math.max(100, config.heartbeatInterval().toMillis() / 4);
    // a peer found DOWN: its chunks are queued by the first scan after its grace, not the next paced one
    long afterGrace = config.repairGrace().toMillis() + check + 1000;
    sched.scheduleWithFixedDelay(guard("failure detection", () -> {
      if (membership.detectFailures() > 0) {
        repairScans.soon(afterGrace);
      }
    }), check, check, TimeUnit.MILLISECONDS);
    long slot = config.historySlot().toMillis();
    CapacityHistory capacity = new CapacityHistory(store, clock, config.historySlot(), config.historyRetention());
    api.setCapacity(capacity);
    sched.scheduleAtFixedRate(guard("history sampling", () -> {
      history.sample(membership.peerStates(), membership.computeStates());
      capacity.sample(membership.peers());
    }), slot, slot, TimeUnit.MILLISECONDS);
    // on a thread of their own: recomputing a client's scores reads every peer's history (seconds at 10,000 peers with a
    // week of it, docs/simulation.md "Findings"), which would hold up failure detection and the heartbeat records here
    long scoreCheck = PlacementService.SCORE_CHECK.toMillis();
    scores.scheduleWithFixedDelay(guard("placement scores", placement::refreshScores), scoreCheck, scoreCheck, TimeUnit.MILLISECONDS);
    sched.scheduleWithFixedDelay(guard("purge-after policies", catalog::purgeExpired), 10, 10, TimeUnit.SECONDS);
    long setCheck = Math.min(10_000, Math.max(500, config.setTimeout().toMillis() / 4));
    sched.scheduleWithFixedDelay(guard("incomplete checkpoint sets", () -> catalog.sets().expire(config.setTimeout())), setCheck, setCheck,
        TimeUnit.MILLISECONDS);
    repairScans.start();
    sched.scheduleWithFixedDelay(guard("heartbeat records", () -> {
      try {
        store.flushSoon();
        events.pruneStored(); // after the flush: the events it deletes are written first
      } catch (IOException | RuntimeException e) {
        membership.rewriteAll(); // what the lost batch said is written again with each peer's next heartbeat
        throw e;
      }
    }), 1, 1, TimeUnit.SECONDS);
    sched.scheduleWithFixedDelay(guard("history pruning", () -> {
      int n = history.prune() + capacity.prune();
      if (n > 0) {
        LOG.info("pruned {} history blocks older than {}", n, config.historyRetention());
      }
    }), 1, 60, TimeUnit.MINUTES);
  }

  public org.cairn.tracker.auth.Credentials credentials() {
    return credentials;
  }

  public TrackerApi api() {
    return api;
  }

  /** The tracker's CA when it serves TLS, else null. */
  public org.cairn.tracker.tls.TrackerCa ca() {
    return ca;
  }

  public Membership membership() {
    return membership;
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
    scheduler.shutdownNow();
    scores.shutdownNow();
    scans.shutdownNow();
    try {
      if (!scheduler.awaitTermination(5, TimeUnit.SECONDS) || !scores.awaitTermination(5, TimeUnit.SECONDS)
          || !scans.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.warn("background tasks did not stop within 5 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      history.flush(); // a large grid's slots sampled since the last write (History)
    } catch (IOException | RuntimeException e) {
      LOG.warn("the history of {} hosts since its last write is lost: {}", history.unwritten(), e.getMessage());
    }
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
