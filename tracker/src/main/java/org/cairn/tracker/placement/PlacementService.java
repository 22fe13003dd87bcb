package org.cairn.tracker.placement;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.availability.Availability;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.core.placement.CappedPlacement;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.FalconPlacement;
import org.cairn.core.placement.LoadCap;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementPolicy;
import org.cairn.core.placement.PlacementRequest;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.store.TrackerStore;

/*
 * Placement at the tracker: candidates are the peers with their current state and free space, their
 * CRLS against the requesting compute host from the history window, and the available bandwidth
 * clients reported (FALCON §3.2). CRLS per (client, peer) changes only as history accumulates, so it is
 * computed off the request path: a thread of its own (TrackerServices) recomputes a storing client's
 * scores when the history moved on and publishes them as an immutable map the placements read. Scores
 * are never used more than the ranking refresh period (FALCON: 10 s) after their inputs were last found
 * current; a request that finds none that recent computes them itself, as every refresh did before
 * (docs/simulation.md, "Findings").
 */
public final class PlacementService {
  /** How often the tracker calls {@link #refreshScores}. */
  public static final Duration SCORE_CHECK = Duration.ofSeconds(1);
  /**
   * How long after its last placement a client's scores are kept current: longer than a checkpoint interval (the
   * client's default is 10 minutes), so a client storing periodically finds them ready.
   */
  static final Duration ACTIVE_FOR = Duration.ofHours(1);

  private final Membership membership;
  private final History history;
  private final Clock clock;
  private final Crls crls;
  private final Duration window;
  private final Duration refresh;
  /** client -> peer -> bytes/s, with the time of the report. */
  private final Map<String, Map<String, double[]>> bandwidth = new ConcurrentHashMap<>();
  /** client -> its published CRLS per peer (see {@link #refreshScores}). */
  private final Map<String, Scores> scores = new ConcurrentHashMap<>();
  /** client -> when it last asked for a placement: the clients whose scores are kept current. */
  private final Map<String, Long> active = new ConcurrentHashMap<>();
  /** What this tracker's placements put on each peer, for the per-donor cap. */
  private final PlacedBytes placed = new PlacedBytes();
  /** The policy repair targets are ranked with: FALCON with the per-donor cap, as stores are by default. */
  private static final CappedPlacement REPAIR_POLICY = new CappedPlacement(new FalconPlacement(), LoadCap.defaults());

  private final TrackerStore store;

  public PlacementService(TrackerStore store, Membership membership, History history, Clock clock, Crls crls, Duration window,
      Duration refresh) throws IOException {
    this.store = store;
    this.membership = membership;
    this.history = history;
    this.clock = clock;
    this.crls = crls;
    this.window = window;
    this.refresh = refresh;
    store.scan(TrackerStore.Family.BANDWIDTH, new byte[0], (key, value) -> {
      String[] ids = new String(key, StandardCharsets.UTF_8).split("\u0000", 2);
      ByteBuffer b = ByteBuffer.wrap(value);
      bandwidth.computeIfAbsent(ids[0], c -> new ConcurrentHashMap<>()).put(ids[1], new double[] {b.getDouble(), b.getLong()});
      return true;
    });
  }

  /**
   * How fast an earlier, higher measurement fades (half-life). A store measures its share of the
   * link; when 8 clients store at once, each sees an eighth of a campus donor's bandwidth, which is
   * no more than an idle DSL laptop gives, and FALCON would start placing on the laptop (measured on
   * the testbed: 5 of 16 stores). So the value kept is the larger of the new measurement and the old
   * one decayed by its age: a donor's capacity is remembered through contention, and a donor that
   * really became slow is ranked down within a few half-lives (or at once by a probe, which replaces).
   */
  static final java.time.Duration BANDWIDTH_HALF_LIFE = java.time.Duration.ofMinutes(10);

  /** Records a client's measured available bandwidth to a peer (FALCON §3.2.2), persistently. */
  public void reportBandwidth(String client, String peer, double bytesPerSecond) throws IOException {
    reportBandwidth(client, peer, bytesPerSecond, false);
  }

  /**
   * As {@link #reportBandwidth(String, String, double)}; {@code replace} (an active probe, which
   * measures the link alone) replaces the old value instead of keeping the larger of the two.
   */
  public void reportBandwidth(String client, String peer, double bytesPerSecond, boolean replace) throws IOException {
    if (!(bytesPerSecond > 0)) {
      throw new IllegalArgumentException("bytesPerSecond must be positive, was " + bytesPerSecond);
    }
    if (client.indexOf('\u0000') >= 0 || peer.indexOf('\u0000') >= 0) {
      throw new IllegalArgumentException("client and peer ids cannot contain NUL");
    }
    long now = clock.millis();
    double[] old = bandwidth.getOrDefault(client, Map.of()).get(peer);
    if (!replace && old != null) {
      double age = Math.max(0, now - (long) old[1]);
      double decayed = old[0] * Math.pow(0.5, age / BANDWIDTH_HALF_LIFE.toMillis());
      bytesPerSecond = Math.max(bytesPerSecond, decayed);
    }
    store.put(TrackerStore.Family.BANDWIDTH, (client + "\u0000" + peer).getBytes(StandardCharsets.UTF_8),
        ByteBuffer.allocate(16).putDouble(bytesPerSecond).putLong(now).array());
    bandwidth.computeIfAbsent(client, c -> new ConcurrentHashMap<>()).put(peer, new double[] {bytesPerSecond, now});
  }

  /** The last reported bandwidth from client to peer in bytes/s, or 0 if none. */
  public double bandwidth(String client, String peer) {
    double[] bw = bandwidth.getOrDefault(client, Map.of()).get(peer);
    return bw == null ? 0 : bw[0];
  }

  /**
   * Age in seconds of the client's bandwidth measurement to a peer, or -1 if it never reported one
   * (the client probes hosts whose measurement is missing or stale before it stores).
   */
  public double bandwidthAgeSeconds(String client, String peer) {
    double[] bw = bandwidth.getOrDefault(client, Map.of()).get(peer);
    return bw == null ? -1 : Math.max(0, (clock.millis() - (long) bw[1]) / 1000.0);
  }

  /**
   * FALCON's choice for {@code client} over every known peer. The candidates come from one read of the peers'
   * standings (in id order, no sort; every policy breaks ties by id, so the order changes no answer) and the client's published scores
   * ({@link #refreshScores}); a peer without a score yet (it registered since) is ranked at gamma, which is what a peer
   * with no history in the window scores. Each candidate carries what it holds for the per-donor cap (core's
   * {@code CappedPlacement}, what {@code falcon} places with): the used bytes of its last heartbeat and what this
   * tracker placed there ({@link PlacedBytes}); the chosen hosts are counted.
   */
  public Placement place(String client, PlacementPolicy policy, PlacementRequest request) throws IOException, NotEnoughHostsException {
    Map<String, Double> crlsByPeer = scores(client, true);
    Map<String, double[]> abw = bandwidth.getOrDefault(client, Map.of());
    List<Membership.Standing> peers = membership.standings();
    long now = clock.millis();
    List<Candidate> candidates = new ArrayList<>(peers.size());
    for (Membership.Standing p : peers) {
      double[] bw = abw.get(p.id());
      candidates.add(new Candidate(p.id(), p.paused() && p.state().acceptsWrites() ? HostState.BUSY : p.state(), p.freeBytes(),
          crlsByPeer.getOrDefault(p.id(), crls.gamma()), bw == null ? 0 : bw[0], p.diskWriteBytesPerSecond())
          .withHeld(p.usedBytes(), placed.at(p.id(), now)));
    }
    Placement chosen = policy.place(candidates, request);
    count(chosen.hosts(), request.fragmentBytes(), now);
    return chosen;
  }

  private void count(List<String> hosts, long fragmentBytes, long now) {
    for (String h : hosts) {
      placed.add(h, fragmentBytes, now);
    }
  }

  /** What this tracker's placements put on {@code peer}, faded ({@link PlacedBytes}); for tests. */
  long placedBytes(String peer) {
    return placed.at(peer, clock.millis());
  }

  /**
   * Hosts for rebuilt fragments (repair): FALCON's ranking against the compute host that stored the
   * chunk, with the per-donor cap, over RUNNING, unpaused peers with room for a fragment that are not in
   * {@code exclude} (repair is steered away from LOADED and BUSY donors). The cap's mean is over every known peer.
   * Returns up to {@code count} peer ids, fewer if fewer qualify.
   */
  public List<String> repairTargets(String client, java.util.Set<String> exclude, int count, long fragmentBytes) throws IOException {
    Map<String, Double> crlsByPeer = scores(client == null ? "" : client, false);
    Map<String, double[]> abw = bandwidth.getOrDefault(client == null ? "" : client, Map.of());
    long now = clock.millis();
    List<Candidate> candidates = new ArrayList<>();
    double held = 0;
    List<PeerView> peers = membership.peers();
    for (PeerView p : peers) {
      long placedThere = placed.at(p.id(), now);
      held += Math.max(p.usedBytes(), placedThere);
      if (exclude.contains(p.id()) || !repairCandidate(p, fragmentBytes)) {
        continue;
      }
      double[] bw = abw.get(p.id());
      candidates.add(new Candidate(p.id(), HostState.RUNNING, p.freeBytes(), crlsByPeer.getOrDefault(p.id(), crls.gamma()),
          bw == null ? 0 : bw[0], p.diskWriteBytesPerSecond()).withHeld(p.usedBytes(), placedThere));
    }
    int n = Math.min(count, candidates.size());
    if (n == 0) {
      return List.of();
    }
    PlacementRequest request = new PlacementRequest(fragmentBytes * n, n, 0, 3600, 600, 0, 12.5e6, 0);
    try {
      List<String> hosts = REPAIR_POLICY.place(candidates, request, new LoadCap.GridLoad(held, peers.size())).hosts();
      count(hosts, fragmentBytes, now);
      return hosts;
    } catch (NotEnoughHostsException e) {
      throw new IllegalStateException("placement refused " + n + " of " + candidates.size() + " eligible hosts", e);
    }
  }

  /**
   * Whether a peer may receive a rebuilt fragment of this size: RUNNING, not paused, with room. The
   * one rule {@link #repairTargets} applies (and what the repair planner explains a stall with).
   */
  public static boolean repairCandidate(PeerView p, long fragmentBytes) {
    return !p.paused() && HostState.RUNNING.name().equals(p.state()) && p.freeBytes() >= fragmentBytes;
  }

  /** MTTF of a compute host over the window, in seconds (the history's censored estimate if it never failed). */
  public double mttfSeconds(String client) throws IOException {
    long to = history.currentSlot() + 1;
    long from = to - history.slots(window);
    StateSeries s = history.computeSeries(client, from, to);
    return Availability.mttfSlots(s, from, to) * history.slotMillis() / 1000.0;
  }

  /**
   * Brings the scores of the clients that placed within {@link #ACTIVE_FOR} up to date, off the request path (the
   * tracker calls it every {@link #SCORE_CHECK}, on a thread of its own): a client's scores are recomputed when their inputs
   * changed (the history window moved on a slot, or the history was written), at most once per half refresh period;
   * unchanged inputs only mark them current again, and peers registered since are scored and added. Scores of
   * clients no longer active are dropped once they are older than the refresh period.
   */
  public void refreshScores() throws IOException {
    try {
      refreshActive();
    } catch (java.io.InterruptedIOException e) {
      Thread.currentThread().interrupt(); // stopping; nothing published is wrong
    }
  }

  private void refreshActive() throws IOException {
    long now = clock.millis();
    active.values().removeIf(askedAt -> now - askedAt > ACTIVE_FOR.toMillis());
    scores.entrySet().removeIf(e -> !active.containsKey(e.getKey()) && now - e.getValue().checkedAt() >= refresh.toMillis());
    for (String client : active.keySet()) {
      Scores old = scores.get(client);
      Inputs inputs = inputs();
      if (old == null || !old.inputs().equals(inputs)) {
        if (old == null || now - old.computedAt() >= refresh.toMillis() / 2) {
          publish(client, compute(client, inputs, now, membership.ids(), Map.of()));
        }
        continue;
      }
      List<String> added = new ArrayList<>();
      for (String id : membership.ids()) {
        if (!old.values().containsKey(id)) {
          added.add(id);
        }
      }
      Scores current = added.isEmpty() ? new Scores(inputs, old.computedAt(), now, old.values())
          : compute(client, inputs, old.computedAt(), added, old.values());
      publish(client, new Scores(inputs, current.computedAt(), now, current.values()));
    }
  }

  /**
   * The client's CRLS per peer: the published scores while they were last found current less than the refresh period
   * ago (FALCON's ranking refresh), otherwise (a new client, or a refresh that fell behind) computed here, as before
   * scores were refreshed in the background. {@code placing}: the client is storing, so its scores are kept current.
   */
  private Map<String, Double> scores(String client, boolean placing) throws IOException {
    long now = clock.millis();
    if (placing) {
      active.put(client, now);
    }
    Scores s = scores.get(client);
    if (s == null || now - s.checkedAt() >= refresh.toMillis()) {
      s = compute(client, inputs(), now, membership.ids(), Map.of());
      publish(client, s);
    }
    return s.values();
  }

  /** The clients with published scores (for tests). */
  java.util.Set<String> scoredClients() {
    return java.util.Set.copyOf(scores.keySet());
  }

  /** What a client's scores are computed from, read before the history itself (a write after it changes it). */
  private Inputs inputs() {
    long to = history.currentSlot() + 1;
    return new Inputs(to - history.slots(window), to, history.changes());
  }

  /**
   * CRLS of {@code client} against each of {@code ids}, added to {@code base}. The conditional probabilities of eq. (1)
   * count only slots where the compute host is known, so the window is narrowed to the span of its known slots: the
   * same scores, and none of the storage history read when the client has no history in the window.
   */
  private Scores compute(String client, Inputs in, long at, List<String> ids, Map<String, Double> base) throws IOException {
    StateSeries compute = history.computeSeries(client, in.from(), in.to());
    long first = in.to();
    long end = in.from();
    for (long slot = in.from(); slot < in.to(); slot++) {
      if (compute.at(slot) != StateSeries.UNKNOWN) {
        first = Math.min(first, slot);
        end = slot + 1;
      }
    }
    Map<String, Double> values = new HashMap<>(base);
    StateSeries none = new StateSeries(in.from(), new byte[0]);
    for (String id : ids) {
      if (Thread.currentThread().isInterrupted()) { // the tracker is stopping (TrackerServices.close): let go of the store
        throw new java.io.InterruptedIOException("placement scores of " + client + " interrupted");
      }
      StateSeries storage = first < end ? history.storageSeries(id, first, end) : none;
      values.put(id, crls.score(storage, compute, Math.min(first, end), end));
    }
    return new Scores(in, at, at, Collections.unmodifiableMap(values));
  }

  /** Publishes scores unless newer ones are there already. */
  private void publish(String client, Scores s) {
    scores.merge(client, s, (old, fresh) -> fresh.checkedAt() >= old.checkedAt() ? fresh : old);
  }

  /** The history window scores were computed over and the history's change count when they were. */
  private record Inputs(long from, long to, long historyChanges) {}

  /**
   * A client's scores (immutable), when their computation began, and when their inputs were last found unchanged.
   */
  private record Scores(Inputs inputs, long computedAt, long checkedAt, Map<String, Double> values) {}
}
