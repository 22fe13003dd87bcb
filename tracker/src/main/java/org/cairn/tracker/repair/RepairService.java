package org.cairn.tracker.repair;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.availability.HostState;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.CommitJournal;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Durability (ARCHITECTURE.md, "Repair"): the tracker schedules repair, peers execute it.
 *
 * A scan walks the chunk index and counts, per chunk, the pieces on peers that are not DOWN. A piece
 * needs repair when nobody holds it (an optimistic write, a bad fragment), its holder is unknown, or
 * its holder has been DOWN past the grace period (at once if it left gracefully). Chunks with at
 * least m live pieces and something to repair are queued by risk: fewest live pieces beyond m first,
 * then chunks of each app/node's latest version before older ones. Chunks with fewer than m live
 * pieces, but at least m counting holders listed DOWN that did not leave, come after those: their read
 * needs a holder the tracker does not hear from (a partition, a heartbeat that fails) to answer its
 * peers, and fails where it is really gone. Chunks the scan found no target for go last, so they do not
 * use up the few jobs a claim tries. (Under a `replace` policy the obsolete versions are gone from the
 * index at commit, so they are never repaired.)
 *
 * A RUNNING, unpaused peer claims jobs (up to `jobsPerPeer` in flight): for each, the current live
 * holders are the sources (RUNNING first, then the holders listed DOWN that did not leave, which the
 * executor's reader asks only when the live ones cannot give m pieces, as fetch and verify do) and
 * FALCON ranks RUNNING peers that hold nothing of the
 * chunk as targets, none past its own in-flight limit. The peer fetches m pieces, rebuilds the missing
 * ones and stores them durably on the targets, then reports. Only then does the index change, by
 * compare-and-set per piece, so an entry never names a fragment that does not exist; anything a
 * failed or raced repair wrote is garbage for the peers' inventory GC. Failed jobs return to the queue
 * at the next scan with the executor and targets that failed avoided for a while. Jobs not reported
 * within the job timeout (2 minutes) are forgotten and planned again, and at the next scan those whose
 * executor went DOWN or whose process started again (Membership#rejoinedAt; a quota change from the
 * running peer registers under the same process instance and is not a restart).
 *
 * Each scan also records why chunks are not being repaired (StallReasons), from the same exclusions
 * and target rule RepairPlanner uses.
 *
 * A walk takes seconds on a large catalog (about 36 s at 10 M chunks), so it runs without the service's lock, on a copy
 * of the jobs in flight, while claims and reports go on against the last published queue and readers (durability,
 * metrics, version status) read the last published snapshot. Before it publishes (the queue and an immutable snapshot,
 * swapped in under the lock) it reads again every chunk a claim, report or confirmation touched meanwhile
 * (WalkReconcile): a chunk claimed during the walk is not queued twice, and one a report made healthy is not queued or
 * counted as at risk from what the walk read before the report. A claim that finds the published queue empty, and a read
 * of durability or of a version's status, ask for a scan when the last snapshot is older than the scan interval: in the
 * tracker, of its paced scanner (scanInBackground), going on with the last snapshot; without one (tests), by scanning
 * on their own thread unless a scan runs.
 *
 * A scan walks the whole index only when it must: on a healthy grid whose catalog changed only by
 * commits of new chunks (CommitJournal) and whose DOWN set is the same, it folds those commits into
 * the last walk's counts (CommitFold), so a grid that stores does not cost its tracker a walk of
 * every chunk each interval; at least every UNCHANGED_SCANS_SKIPPED intervals it walks anyway.
 */
public final class RepairService {
  private static final Logger LOG = LoggerFactory.getLogger(RepairService.class);

  /**
   * Repair settings. {@code jobsPerPeer}: the jobs a peer that claims by count (one that predates batches) may run at
   * once. {@code peerBytes}: the bytes of rebuilt pieces one peer may have in flight, as the executor of a batch claimed
   * by bytes and, separately, as the target of pieces.
   */
  public record Config(Duration grace, Duration scanInterval, int jobsPerPeer, Duration jobTimeout, long peerBytes) {
    /** Two batches of a peer's default size in flight: one read while the other is written. */
    public static final long DEFAULT_PEER_BYTES = 64L << 20;

    public Config {
      if (grace.isNegative()) {
        throw new IllegalArgumentException("repair grace must be >= 0");
      }
      if (jobsPerPeer < 1) {
        throw new IllegalArgumentException("repair jobs per peer must be >= 1, was " + jobsPerPeer);
      }
      if (peerBytes < 1) {
        throw new IllegalArgumentException("repair bytes per peer must be >= 1, was " + peerBytes);
      }
    }

    public Config(Duration grace, Duration scanInterval, int jobsPerPeer, Duration jobTimeout) {
      this(grace, scanInterval, jobsPerPeer, jobTimeout, DEFAULT_PEER_BYTES);
    }
  }

  /** Counts from the last scan. */
  public record Snapshot(long scannedAt, long chunks, long healthy, long degraded, long lost, int queued,
      List<DurabilityView.Latest> latest, long neededBytes, Map<String, String> unhealthy, List<DurabilityView.Stalled> stalled,
      long backlogBytes) {
    Snapshot at(long when) {
      return new Snapshot(when, chunks, healthy, degraded, lost, queued, latest, neededBytes, unhealthy, stalled, backlogBytes);
    }
  }

  /**
   * A healthy grid whose catalog and DOWN set have not changed is not walked again for this many
   * scan intervals (a healthy chunk can only become unhealthy through one of those two).
   */
  public static final int UNCHANGED_SCANS_SKIPPED = 30;
  /**
   * How long a rebuilt piece an executor reports placed on another peer waits for that peer's inventory to list it
   * before the chunk is planned again: twice a peer's default inventory interval (10 minutes), and some.
   */
  public static final Duration UNCONFIRMED_TIMEOUT = Duration.ofMinutes(25);
  /** How long a bad-piece report by someone other than the holder waits for a second reporter before it is forgotten. */
  public static final Duration SUSPICION_TTL = BadReports.SUSPICION_TTL;
  /** Rounds of correcting a walk's result outside the lock before the last, under it, as it is published. */
  private static final int UNLOCKED_RECONCILES = 3;


  private final Catalog catalog;
  private final Membership membership;
  private final PlacementService placement;
  private final EventLog events;
  private final Clock clock;
  private final Config config;
  private final IndexWalk walk;
  private final CommitFold fold;
  private final RepairPlanner planner;

  private final WalkReconcile reconcile;
  /** Held by the scan that runs (one at a time); not the service's lock, which a walk does not hold. */
  private final ReentrantLock scanning = new ReentrantLock();
  /** What claims, reports and confirmations touch while a scan runs, or null (guarded by the service's lock). */
  private WalkChanges walking;
  private volatile Runnable afterWalk = () -> { };
  /** Asks the tracker's scanner for a scan ({@link #scanInBackground}), or null: scan on the caller's thread. */
  private volatile Runnable scanRequest;

  /** The last published queue, claimed from while the next walk runs. */
  private Deque<Pending> queue = new ArrayDeque<>();
  /**
   * The queue's length as the last scan or claim left it, read without the service's lock: every heartbeat's answer
   * carries it, and heartbeats must not wait behind a claim.
   */
  private volatile int queuedCount;
  private final RepairJobs jobs = new RepairJobs();
  /** Written under the lock as a scan publishes; readers take the last published one without it. */
  private volatile Snapshot snapshot = new Snapshot(0, 0, 0, 0, 0, 0, List.of(), 0, Map.of(), List.of(), 0);
  /** Bytes repaired per second over about the last minute (the ETA's rate). */
  private final RepairRate rate = new RepairRate(60_000);
  private final RepairOutcomes.Totals totals = new RepairOutcomes.Totals();
  private final RepairOutcomes outcomes;
  private final LastWalk last;
  private final BadReports badReports;

  public RepairService(Catalog catalog, Membership membership, PlacementService placement, EventLog events, Clock clock,
      Config config) {
    this.catalog = catalog;
    this.membership = membership;
    this.placement = placement;
    this.events = events;
    this.clock = clock;
    this.config = config;
    this.walk = new IndexWalk(catalog, membership, config.grace(), config.peerBytes());
    this.fold = new CommitFold(catalog, membership, config.grace());
    this.planner = new RepairPlanner(catalog, membership, placement, jobs, config);
    this.reconcile = new WalkReconcile(catalog, membership, config.grace());
    this.outcomes = new RepairOutcomes(catalog, jobs, events, 10 * config.scanInterval().toMillis(),
        30 * config.scanInterval().toMillis(), UNCONFIRMED_TIMEOUT.toMillis(), totals);
    catalog.holders().onInventory(this::inventory);
    this.last = new LastWalk(UNCHANGED_SCANS_SKIPPED * config.scanInterval().toMillis());
    this.badReports = new BadReports(catalog, events);
  }

  public Config config() {
    return config;
  }

  /**
   * Rebuilds the queue and the durability counts from the chunk index and current membership, and publishes them. The
   * walk of the index runs without the service's lock (claims, reports and readers go on meanwhile, against the last
   * published queue and snapshot); one scan runs at a time, and a call while one runs waits for it and scans again.
   */
  public Snapshot scan() throws IOException {
    scanning.lock();
    try {
      return scanNow();
    } finally {
      scanning.unlock();
    }
  }

  /**
   * Scans in the background from now on: a claim or read that finds the last snapshot older than the scan interval asks
   * {@code request} for a scan (the tracker's paced scanner) and goes on with the last published one, instead of
   * scanning on its own thread.
   */
  public void scanInBackground(Runnable request) {
    scanRequest = request;
  }

  /**
   * If the last snapshot is older than the scan interval: asks for a scan in the background, or without one scans here
   * unless a scan runs (which will publish soon). Never waits for a walk it did not start.
   */
  private void scanIfStaleAndIdle() throws IOException {
    Runnable request = scanRequest;
    if (request != null) {
      if (stale(snapshot) && !scanning.isLocked()) {
        request.run(); // not while one runs: its publish makes the snapshot fresh
      }
      return;
    }
    if (stale(snapshot) && scanning.tryLock()) {
      try {
        if (stale(snapshot)) {
          scanNow();
        }
      } finally {
        scanning.unlock();
      }
    }
  }

  private boolean stale(Snapshot s) {
    return clock.millis() - s.scannedAt() >= config.scanInterval().toMillis();
  }

  private Snapshot scanNow() throws IOException {
    long now = clock.millis();
    Map<String, PeerView> peers = peersById();
    WalkChanges changed = new WalkChanges();
    boolean healthyAndIdle;
    synchronized (this) {
      expireJobs(now, peers);
      healthyAndIdle = snapshot.unhealthy().isEmpty() && queue.isEmpty() && jobs.size() == 0;
      walking = changed;
    }
    try {
      // read before the walk: a write during it makes the next scan walk again
      CommitJournal.Mark mark = catalog.changesAfter(last.seq());
      long changes = mark.changes() - mark.foldableWrites();
      Map<String, Boolean> down = new HashMap<>();
      peers.forEach((id, v) -> down.put(id, HostState.DOWN.name().equals(v.state())));
      String why = last.whyNot(healthyAndIdle, changes, down, now);
      if (why == null && mark.after() == null) {
        why = "more commits than the journal keeps";
      }
      if (why == null) {
        Snapshot folded = fold.fold(snapshot, mark.after(), peers, now);
        if (folded != null) {
          last.folded(mark.seq(), !mark.after().isEmpty());
          return publishFold(folded, changed, now);
        }
        why = "a committed chunk is not healthy, or is gone";
      }
      LOG.debug("walking the chunk index: {}", why);
      RepairJobs atStart;
      synchronized (this) {
        atStart = jobs.copyForWalk();
      }
      IndexWalk.Result w = walk.walk(peers, atStart, now);
      afterWalk.run();
      // only a walk that finished stands for the grid; a commit during it may or may not be in its counts
      last.walked(changes, down, now, mark.seq(), catalog.commitSeq());
      return publishWalk(w, changed, peers, now);
    } finally {
      synchronized (this) {
        walking = null;
      }
    }
  }

  private synchronized Snapshot publishFold(Snapshot folded, WalkChanges changed, long now) {
    snapshot = changed.rescanAsked() ? folded.at(0) : folded;
    rate.sample(now, totals.repairedBytes);
    return folded;
  }

  /**
   * Publishes a walk's result, corrected for the chunks claimed, reported or confirmed while it ran ({@link
   * WalkReconcile}): the bulk of them outside the lock, the few touched meanwhile under it, as the queue and snapshot
   * are swapped in.
   */
  private Snapshot publishWalk(IndexWalk.Result walked, WalkChanges changed, Map<String, PeerView> peers, long now)
      throws IOException {
    IndexWalk.Result w = walked;
    for (int round = 0; round < UNLOCKED_RECONCILES; round++) {
      Set<WalkChanges.Touched> touched;
      RepairJobs current;
      synchronized (this) {
        touched = changed.drain();
        current = touched.isEmpty() ? null : jobs.copyForWalk();
      }
      if (current == null) {
        break;
      }
      w = reconcile.apply(w, touched, current, peers, now);
    }
    synchronized (this) {
      w = reconcile.apply(w, changed.drain(), jobs, peers, now);
      queue = new ArrayDeque<>(w.queue());
      queuedCount = queue.size();
      if (w.lost() > snapshot.lost()) {
        LOG.warn("{} chunks have fewer than m live pieces (unrestorable until their holders return)", w.lost());
      }
      Snapshot s = new Snapshot(now, w.chunks(), w.healthy(), w.degraded(), w.lost(), queue.size(), w.latest(), w.neededBytes(),
          w.unhealthy(), w.stalled(), w.backlogBytes());
      snapshot = changed.rescanAsked() ? s.at(0) : s; // a report during the walk asked for a scan soon: keep asking
      rate.sample(now, totals.repairedBytes);
      return s;
    }
  }

  /** Test hook: runs after a walk has read the index and before its result is published. */
  void afterWalk(Runnable hook) {
    afterWalk = hook;
  }

  /** How many scans walked the chunk index (the others found nothing changed on a healthy grid). */
  public long walks() {
    return last.walks();
  }

  /** How many scans folded commits into the last walk's counts instead of walking. */
  public long folds() {
    return last.folds();
  }

  /** The durability API's answer: scans first if the last snapshot is older than the scan interval and no scan runs. */
  public DurabilityView durability() throws IOException {
    scanIfStaleAndIdle();
    Snapshot s = snapshot;
    synchronized (this) {
      return view(s, s.latest(), s.stalled());
    }
  }

  /** The last scan's durability, without scanning again (the metrics scrape reads it): never waits for a walk. */
  public synchronized DurabilityView lastDurability() {
    return view(snapshot, List.of(), List.of());
  }

  /** The last scan's counts with these latest versions and stalled chunks; neededBytes: what all pieces of all indexed chunks take. */
  private DurabilityView view(Snapshot s, List<DurabilityView.Latest> latest, List<DurabilityView.Stalled> stalled) {
    long now = clock.millis();
    return new DurabilityView(s.scannedAt(), s.chunks(), s.healthy(), s.degraded(), s.lost(),
        queue.size(), jobs.size(), totals.repairedBytes, totals.repairedFragments, totals.failedJobs, config.grace().toMillis(),
        s.neededBytes(), latest, stalled, s.backlogBytes(), rate.bytesPerSecond(now, totals.repairedBytes),
        rate.etaSeconds(s.backlogBytes(), now, totals.repairedBytes));
  }

  /** Stalled chunks by kind from the last scan (no rescan: the metrics scrape reads it). */
  public Map<String, Long> stalledByKind() {
    return StallReasons.byKind(snapshot.stalled());
  }

  /**
   * healthy, degraded or lost for a set of chunks of an app (a version's status), from the last scan
   * (at most the scan interval old): no index reads, so listing many versions stays cheap.
   */
  public String status(String app, List<ChunkId> chunks) throws IOException {
    scanIfStaleAndIdle();
    Snapshot last = snapshot;
    String worst = "healthy";
    for (ChunkId id : chunks) {
      String s = last.unhealthy().get(IndexWalk.key(app, id));
      if ("lost".equals(s)) {
        return "lost";
      }
      if (s != null) {
        worst = "degraded";
      }
    }
    return worst;
  }

  /** Jobs waiting (a peer's heartbeat answer tells it whether to claim), as the last scan or claim left them: never waits. */
  public int queued() {
    return queuedCount;
  }

  /** Hands up to {@code max} jobs to a peer, most endangered first (a claim by count: at most jobsPerPeer in flight). */
  public List<RepairJob> claim(String peerId, int max) throws IOException {
    return claim(peerId, max, null);
  }

  /**
   * Hands a peer a batch of jobs, most endangered first: up to {@code max}, and with {@code maxBytes} (a batch claim)
   * as many as keep the bytes it rebuilds within {@code maxBytes} and its jobs in flight within the config's
   * peerBytes; without it (a peer that predates batches) up to jobsPerPeer in flight.
   */
  public List<RepairJob> claim(String peerId, int max, Long maxBytes) throws IOException {
    PeerView self = membership.peer(peerId);
    if (self == null || self.paused() || !HostState.RUNNING.name().equals(self.state())) {
      return List.of();
    }
    if (queuedCount == 0) {
      scanIfStaleAndIdle(); // nothing to hand out from the last scan: look for work if it is old and none runs
    }
    return claimQueued(peerId, max, maxBytes);
  }

  private synchronized List<RepairJob> claimQueued(String peerId, int max, Long maxBytes) throws IOException {
    long now = clock.millis();
    int room = maxBytes == null ? Math.min(max, config.jobsPerPeer() - jobs.executing(peerId)) : max;
    long bytesRoom = maxBytes == null ? Long.MAX_VALUE : Math.min(maxBytes, config.peerBytes() - jobs.executingBytes(peerId));
    List<RepairJob> out = new ArrayList<>();
    Map<String, PeerView> peers = peersById();
    int tried = 0;
    for (Iterator<Pending> it = queue.iterator(); it.hasNext() && out.size() < room && bytesRoom > 0 && tried < 4 * Math.max(1, room); ) {
      Pending p = it.next();
      tried++;
      String k = IndexWalk.key(p.app(), p.id());
      if (jobs.running(k) || jobs.avoided(k, peerId, now)) {
        continue;
      }
      RepairPlanner.Planned planned = planner.plan(p, peers, now);
      if (planned == null) {
        continue; // nothing to do any more, or no target now: left for the next scan
      }
      long bytes = planned.job().rebuiltBytes();
      if (!out.isEmpty() && bytes > bytesRoom) {
        break; // the batch is full; the chunk stays queued
      }
      it.remove();
      touched(p.app(), p.id());
      bytesRoom -= bytes;
      jobs.start(k, new RepairJobs.InFlight(planned.job(), peerId, now, now + config.jobTimeout().toMillis(), planned.expected()));
      out.add(planned.job());
    }
    queuedCount = queue.size();
    if (!out.isEmpty()) {
      LOG.debug("peer {} claimed {} repair jobs ({} still queued)", peerId, out.size(), queue.size());
    }
    return out;
  }

  /**
   * Applies a peer's results: each piece placed on the executor itself enters the index if the entry still expects it;
   * a piece placed on another peer once that peer's inventory lists it ({@link RepairOutcomes}).
   */
  public synchronized void report(String peerId, List<RepairOutcome> outcomes) throws IOException {
    for (RepairOutcome o : outcomes) {
      RepairJobs.InFlight f = jobs.get(o.id());
      if (f != null) {
        touched(f.job().app(), ChunkId.parse(f.job().chunk()));
      }
    }
    this.outcomes.apply(peerId, outcomes, clock.millis());
  }

  /** Under the lock: a claim, report or confirmation changed this chunk, which a running walk must not undo. */
  private void touched(String app, ChunkId id) {
    if (walking != null) {
      walking.touched(app, id);
    }
  }

  /** Under the lock: the index changed under the last scan; the next claim or read of a status scans again. */
  private void askRescan() {
    snapshot = snapshot.at(0);
    if (walking != null) {
      walking.rescan();
    }
  }

  /**
   * A peer's inventory (called by {@link org.cairn.tracker.catalog.HolderIndex#garbage} before it answers): the rebuilt
   * pieces it was reported to hold and lists enter the index. Returns how many did.
   */
  public int inventory(String peerId, List<byte[]> keys) throws IOException {
    if (!jobs.awaits(peerId)) {
      return 0; // the common case, answered without waiting for the lock a scan holds for its whole walk
    }
    synchronized (this) {
      for (RepairJobs.Unconfirmed u : jobs.unconfirmedOn(peerId)) {
        touched(u.job().app(), ChunkId.parse(u.job().chunk()));
      }
      int n = outcomes.confirm(peerId, keys);
      if (n > 0) {
        askRescan(); // walk again at the next scan
      }
      return n;
    }
  }

  /** Rebuilt pieces reported placed on a peer other than their executor, which that peer has not listed yet. */
  public synchronized int unconfirmed() {
    return jobs.unconfirmedCount();
  }

  /**
   * Bad fragments of one peer (found by its scrubber, read path or audit, by a repair, or by a client's
   * fetch), as 37-byte fragment keys with why. {@code authoritative} (the holder reporting its own pieces, or the admin):
   * the index forgets them at once and repair rebuilds them. Otherwise each is only suspected ({@link Suspicions}), and
   * forgotten when a second reporter (another {@code reporterId}) reports it within {@link #SUSPICION_TTL}, or the holder
   * itself does: one client or donor cannot erase pieces by naming their keys ({@link BadReports}). Returns how many
   * index entries the report dropped now.
   */
  public int reportBad(String holder, Map<byte[], String> fragments, String reporterId, boolean authoritative)
      throws IOException {
    return reportBad(holder, fragments, reporterId, authoritative, app -> true);
  }

  /**
   * As {@link #reportBad(String, Map, String, boolean)} by a reporter who may speak for the apps {@code scope} accepts: a
   * suspicion confirmed by a second reporter drops the holder only in the entries of apps both may speak for.
   */
  public synchronized int reportBad(String holder, Map<byte[], String> fragments, String reporterId, boolean authoritative,
      java.util.function.Predicate<String> scope) throws IOException {
    int n = badReports.report(holder, fragments, reporterId, authoritative, scope, clock.millis());
    if (n > 0) {
      askRescan(); // walk again at the next scan
    }
    return n;
  }

  /**
   * Forgets the jobs not reported within the job timeout, and at once those whose executor went DOWN or
   * restarted since it claimed them (it will never report them; a late report is ignored as not owned).
   */
  private void expireJobs(long now, Map<String, PeerView> peers) {
    outcomes.expireUnconfirmed(now);
    for (Map.Entry<String, RepairJobs.InFlight> e : jobs.expire(now, now + 10 * config.scanInterval().toMillis(),
        f -> executorGone(f, peers))) {
      totals.failedJobs++;
      if (e.getValue().deadline() <= now) {
        LOG.warn("repair {} by {} was not reported within {}; planning it again", e.getKey(), e.getValue().executor(),
            config.jobTimeout());
      } else {
        LOG.warn("repair {}: its executor {} went DOWN or registered again (restarted); planning it again", e.getKey(), e.getValue().executor());
      }
    }
  }

  private boolean executorGone(RepairJobs.InFlight f, Map<String, PeerView> peers) {
    PeerView v = peers.get(f.executor());
    return v == null || HostState.DOWN.name().equals(v.state()) || membership.rejoinedAt(f.executor()) > f.started();
  }

  private Map<String, PeerView> peersById() {
    Map<String, PeerView> out = new HashMap<>();
    for (PeerView v : membership.peers()) {
      out.put(v.id(), v);
    }
    return out;
  }
}
