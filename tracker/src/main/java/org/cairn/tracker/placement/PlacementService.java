package org.cairn.tracker.placement;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.availability.Availability;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.core.placement.Candidate;
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
 * clients reported (FALCON §3.2). CRLS per (client, peer) is cached for the ranking refresh period
 * (FALCON: 10 s), since it changes only as history accumulates.
 */
public final class PlacementService {
  private final Membership membership;
  private final History history;
  private final Clock clock;
  private final Crls crls;
  private final Duration window;
  private final Duration refresh;
  /** client -> peer -> bytes/s, with the time of the report. */
  private final Map<String, Map<String, double[]>> bandwidth = new ConcurrentHashMap<>();
  private final Map<String, CachedScores> scores = new ConcurrentHashMap<>();

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

  public Placement place(String client, PlacementPolicy policy, PlacementRequest request) throws IOException, NotEnoughHostsException {
    Map<String, Double> crlsByPeer = scores(client);
    Map<String, double[]> abw = bandwidth.getOrDefault(client, Map.of());
    List<Candidate> candidates = new ArrayList<>();
    for (PeerView p : membership.peers()) {
      double[] bw = abw.get(p.id());
      candidates.add(new Candidate(p.id(), p.paused() && HostState.parse(p.state()).acceptsWrites() ? HostState.BUSY
          : HostState.parse(p.state()), p.freeBytes(), crlsByPeer.getOrDefault(p.id(), crls.gamma()), bw == null ? 0 : bw[0],
          p.diskWriteBytesPerSecond()));
    }
    return policy.place(candidates, request);
  }

  /**
   * Hosts for rebuilt fragments (repair): FALCON's ranking against the compute host that stored the
   * chunk, over RUNNING, unpaused peers with room for a fragment that are not in {@code exclude}
   * (repair is steered away from LOADED and BUSY donors). Returns up to {@code count} peer ids, fewer
   * if fewer qualify.
   */
  public List<String> repairTargets(String client, java.util.Set<String> exclude, int count, long fragmentBytes) throws IOException {
    Map<String, Double> crlsByPeer = scores(client == null ? "" : client);
    Map<String, double[]> abw = bandwidth.getOrDefault(client == null ? "" : client, Map.of());
    List<Candidate> candidates = new ArrayList<>();
    for (PeerView p : membership.peers()) {
      if (exclude.contains(p.id()) || !repairCandidate(p, fragmentBytes)) {
        continue;
      }
      double[] bw = abw.get(p.id());
      candidates.add(new Candidate(p.id(), HostState.RUNNING, p.freeBytes(), crlsByPeer.getOrDefault(p.id(), crls.gamma()),
          bw == null ? 0 : bw[0], p.diskWriteBytesPerSecond()));
    }
    int n = Math.min(count, candidates.size());
    if (n == 0) {
      return List.of();
    }
    PlacementRequest request = new PlacementRequest(fragmentBytes * n, n, 0, 3600, 600, 0, 12.5e6, 0);
    try {
      return PlacementPolicy.parse("falcon").place(candidates, request).hosts();
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

  private Map<String, Double> scores(String client) throws IOException {
    CachedScores cached = scores.get(client);
    long now = clock.millis();
    if (cached != null && now - cached.at < refresh.toMillis()) {
      return cached.values;
    }
    long to = history.currentSlot() + 1;
    long from = to - history.slots(window);
    StateSeries compute = history.computeSeries(client, from, to);
    Map<String, Double> values = new ConcurrentHashMap<>();
    for (PeerView p : membership.peers()) {
      values.put(p.id(), crls.score(history.storageSeries(p.id(), from, to), compute, from, to));
    }
    scores.put(client, new CachedScores(now, values));
    return values;
  }

  private record CachedScores(long at, Map<String, Double> values) {}
}
