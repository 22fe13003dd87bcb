package org.cairn.tracker.membership;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.availability.HostState;
import org.cairn.core.config.HostPort;
import org.cairn.tracker.auth.Refused;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Soft-state membership (stdchk §IV.A): a peer is known by its heartbeats. A peer whose last
 * heartbeat is older than the timeout (default 3 x the interval) is DOWN; one that left gracefully is
 * DOWN at once. A DOWN peer that heartbeats or registers again rejoins with its stored record.
 *
 * Every change is written to the PEERS column family, so a tracker restart (or a group's new leader) keeps every
 * peer. On restart each peer that was not DOWN gets a fresh timeout (its last heartbeat is set to the restart
 * time): the tracker being away is no evidence against a peer. So the stored time of a peer's last heartbeat is not
 * read back, and a heartbeat that changes nothing else is not written (in a group: not replicated, the leader's main
 * cost per heartbeat, docs/simulation.md "Heartbeats"): a peer's record is written when what it says changes (its
 * state, pause, pieces, bytes held, or its free space by more than FREE_SLACK), and otherwise at most every REFRESH.
 *
 * Compute hosts (clients running a job) heartbeat UP or DOWN the same way, in the COMPUTE family.
 * Time comes from the injected clock.
 *
 * What a donor says about itself is bounded, since donors are strangers: a peer may not register at the
 * address of another peer that is not DOWN (it would receive that peer's traffic); its free space is
 * clamped to its quota and to MAX_BYTES, and its disk rate to MAX_DISK_RATE, so a lie cannot draw all
 * placements to it. A compute host belongs to the first token that heartbeats it; another token's
 * heartbeat for it is refused.
 */
public final class Membership {
  private static final Logger LOG = LoggerFactory.getLogger(Membership.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The most space a peer is believed to offer or have free (1 PiB): beyond any donor's desktop. */
  public static final long MAX_BYTES = 1L << 50;
  /** The fastest disk write rate a peer is believed to have (bytes/s; 10 GB/s, above today's fastest NVMe drives). */
  public static final double MAX_DISK_RATE = 10e9;
  /**
   * How far a peer's free space may move before its record is written again: a donor's disk fills and empties with its
   * owner's files between heartbeats, and a new leader believing a few MiB more or less until the peer's next heartbeat
   * places no differently in practice (a full peer refuses a piece; the client goes on to an alternate).
   */
  static final long FREE_SLACK = 64L << 20;
  /** The longest a peer's stored record goes without being written again while it heartbeats. */
  static final Duration REFRESH = Duration.ofMinutes(5);

  private final TrackerStore store;
  private final Clock clock;
  private final Duration timeout;
  /** The tracker's own delay in taking heartbeats ({@link #allowForOwnDelay}); none unless a server says. */
  private volatile LongSupplier ownDelay = () -> 0;
  /** That delay as failure detection last read it: what {@link #effectiveState} adds to the timeout. */
  private volatile long ownDelayMillis;
  /** A delay from which the log says the tracker is behind. */
  private static final Duration BEHIND_NOTED = Duration.ofSeconds(1);
  private final EventLog events;
  /**
   * Peer id -> record, kept in id order: {@link #standings()} and {@link #peers()} list peers in that order without a
   * sort, and placement's own sorts, which break ties by id, take input in that order in linear time.
   */
  private final Map<String, PeerRecord> peers = new java.util.concurrent.ConcurrentSkipListMap<>();
  private final Map<String, ComputeRecord> compute = new ConcurrentHashMap<>();
  /** Last effective state logged per peer, to log transitions once. */
  private final Map<String, HostState> lastSeenState = new ConcurrentHashMap<>();
  /** The disk rate each peer last reported (bytes/s; absent: unknown). In memory: a restarted tracker learns it again within a heartbeat. */
  private final Map<String, Double> diskRates = new ConcurrentHashMap<>();
  /** Peer id -> when it last registered again (see {@link #rejoinedAt}). */
  private final Map<String, Long> rejoined = new ConcurrentHashMap<>();
  /** Peer id -> the process instance it last registered with (in memory: a restarted tracker has no claimed jobs to lose). */
  private final Map<String, String> instances = new ConcurrentHashMap<>();
  private final PeerTraffic traffic = new PeerTraffic();
  /** Peer id -> its record as last handed to the store (what a restart or a new leader would read), to judge a heartbeat's change. */
  private final Map<String, PeerRecord> written = new ConcurrentHashMap<>();
  /**
   * Address (as {@link #addressKey} compares them) -> the peers registered at it, so the free-address check of a
   * registration looks up one address instead of reading every peer (it ran twice per registration: quadratic in the
   * grid's size while 100,000 donors join). Updated with {@link #peers} by {@link #remember}.
   */
  private final Map<String, java.util.Set<String>> byAddress = new ConcurrentHashMap<>();
  /**
   * One peer's registrations write its record in order (a stripe per id); other peers' writes, in a tracker group a
   * log round trip each, go on together instead of one at a time behind this object's lock.
   */
  private final Object[] writeOrder = new Object[64];

  public Membership(TrackerStore store, Clock clock, Duration timeout) throws IOException {
    this(store, clock, timeout, new EventLog(clock, 100));
  }

  public Membership(TrackerStore store, Clock clock, Duration timeout, EventLog events) throws IOException {
    this.events = events;
    this.store = store;
    this.clock = clock;
    this.timeout = timeout;
    long now = clock.millis();
    store.scan(TrackerStore.Family.PEERS, new byte[0], (key, value) -> {
      PeerRecord r = JSON.readValue(value, PeerRecord.class);
      written.put(r.id(), r);
      if (!r.left() && r.lastHeartbeat() > 0) {
        r = r.withLastHeartbeat(Math.max(r.lastHeartbeat(), now));
      }
      remember(r);
      return true;
    });
    for (int i = 0; i < writeOrder.length; i++) {
      writeOrder[i] = new Object();
    }
    store.scan(TrackerStore.Family.COMPUTE, new byte[0], (key, value) -> {
      ComputeRecord r = JSON.readValue(value, ComputeRecord.class);
      compute.put(r.id(), r.up() ? new ComputeRecord(r.id(), true, Math.max(r.lastHeartbeat(), now), r.owner()) : r);
      return true;
    });
    if (!peers.isEmpty()) {
      LOG.info("restored {} peers and {} compute hosts; live peers get a fresh {} ms to heartbeat",
          peers.size(), compute.size(), timeout.toMillis());
    }
  }

  public Duration timeout() {
    return timeout;
  }

  /**
   * When a known peer's process last started again (it registered under another process instance,
   * or none) since this tracker started, or 0: work it had claimed before is lost. A registration
   * under the same instance (its donor changed the quota) is not a restart.
   */
  public long rejoinedAt(String id) {
    return rejoined.getOrDefault(id, 0L);
  }

  /**
   * Registers a new peer or rejoins a known one; refused at an address another peer not DOWN has. The check and the
   * record in memory are one step (two peers cannot take one address together); the record's write follows, in order
   * with this peer's other registrations only.
   */
  public PeerView register(RegisterRequest r) throws IOException {
    requireId(r.id());
    if (r.address() == null || r.address().isBlank()) {
      throw new IllegalArgumentException("address is required");
    }
    HostState state = r.state() == null ? HostState.RUNNING : HostState.parse(r.state());
    PeerRecord old;
    PeerRecord record;
    long now;
    synchronized (writeOrder[Math.floorMod(r.id().hashCode(), writeOrder.length)]) {
      synchronized (this) {
        now = clock.millis();
        requireFreeAddress(r.id(), r.address(), now);
        old = peers.get(r.id());
        long quota = clamp(r.quotaBytes(), MAX_BYTES);
        record = new PeerRecord(r.id(), r.address(), state.name(), free(r.freeBytes(), quota), clamp(r.usedBytes(), MAX_BYTES),
            quota, Math.max(0, r.fragments()), r.paused(), now, old == null ? now : old.registeredAt(), false, r.version(),
            r.publicKey() != null ? r.publicKey() : old == null ? null : old.publicKey());
        remember(record);
      }
      store.put(TrackerStore.Family.PEERS, r.id().getBytes(StandardCharsets.UTF_8), JSON.writeValueAsBytes(record));
      written.put(r.id(), record);
    }
    LOG.info("peer {} {} at {} ({}, quota {} bytes)", r.id(), old == null ? "joined" : "rejoined", r.address(), state,
        r.quotaBytes());
    String before = r.instance() == null ? instances.remove(r.id()) : instances.put(r.id(), r.instance());
    if (old != null && (r.instance() == null || !r.instance().equals(before))) {
      rejoined.put(r.id(), now);
    }
    lastSeenState.put(r.id(), state);
    events.add(old == null ? "joined" : "rejoined", r.id(), "at " + r.address() + " (" + state + ", quota " + r.quotaBytes() + " bytes)");
    return view(record, now);
  }

  /** The data-plane key peer {@code id} last registered with (base64), or null: unknown peer, or a plain grid. */
  public String publicKey(String id) {
    PeerRecord r = peers.get(id);
    return r == null ? null : r.publicKey();
  }

  /**
   * Refuses ({@link Refused#conflict}) registering peer {@code id} at {@code address} when another peer that is not DOWN
   * has it, as {@link #register} does: a caller that spends something on a registration (an enrollment token's use)
   * asks first.
   */
  public void requireFreeAddress(String id, String address) {
    if (address != null && !address.isBlank()) {
      requireFreeAddress(id, address, clock.millis());
    }
  }

  /**
   * Refuses ({@link Refused#conflict}) an address that another peer not DOWN has: the data plane would send that
   * peer's traffic (pieces, tickets) to whoever registered last. A peer DOWN (timed out or left) frees its address.
   */
  private void requireFreeAddress(String id, String address, long now) {
    java.util.Set<String> there = byAddress.get(addressKey(address));
    if (there == null) {
      return;
    }
    for (String other : there) {
      PeerRecord p = peers.get(other);
      if (p != null && !other.equals(id) && effectiveState(p, now) != HostState.DOWN) {
        throw Refused.conflict("address " + address.trim() + " is registered to live peer " + other);
      }
    }
  }

  /** An address as compared for sameness: host in lower case, port as a number (names are not resolved). */
  private static String addressKey(String address) {
    if (address == null) {
      return "";
    }
    try {
      HostPort hp = HostPort.parse(address);
      return hp.host().toLowerCase(Locale.ROOT) + ":" + hp.port();
    } catch (IllegalArgumentException e) {
      return address.trim().toLowerCase(Locale.ROOT);
    }
  }

  /** {@code v} within 0..max. */
  private static long clamp(long v, long max) {
    return Math.max(0, Math.min(v, max));
  }

  /** Claimed free space within 0..quota (0..MAX_BYTES when the peer names no quota). */
  private static long free(long claimed, long quota) {
    return clamp(claimed, quota > 0 ? quota : MAX_BYTES);
  }

  /** Records a heartbeat; false if the peer is unknown (it should register). */
  public boolean heartbeat(String id, HeartbeatRequest h) throws IOException {
    PeerRecord old = peers.get(id);
    if (old == null) {
      return false;
    }
    HostState state = h.state() == null ? HostState.RUNNING : HostState.parse(h.state());
    if (state == HostState.DOWN) {
      throw new IllegalArgumentException("a peer cannot report itself DOWN; leave instead");
    }
    long now = clock.millis();
    HostState before = effectiveState(old, now);
    PeerRecord record = old.withHeartbeat(state.name(), free(h.freeBytes(), old.quotaBytes()), clamp(h.usedBytes(), MAX_BYTES),
        Math.max(0, h.fragments()), h.paused(), now);
    peers.put(id, record);
    if (worthWriting(written.get(id), record)) {
      // a tracker group replicates heartbeat records together, not one log entry per heartbeat
      store.putSoon(TrackerStore.Family.PEERS, id.getBytes(StandardCharsets.UTF_8), JSON.writeValueAsBytes(record));
      written.put(id, record);
    }
    traffic.report(id, now, h.bytesIn(), h.bytesOut(), h.repairBytes());
    if (h.diskWriteBytesPerSecond() > 0) { // NaN is not > 0
      diskRates.put(id, Math.min(h.diskWriteBytesPerSecond(), MAX_DISK_RATE));
    } else {
      diskRates.remove(id);
    }
    if (before != state) {
      LOG.info("peer {} is {} (was {})", id, state, before);
      events.add("state", id, state + " (was " + before + ")");
    }
    lastSeenState.put(id, state);
    return true;
  }

  /**
   * Whether a heartbeat's {@code record} says something the stored one ({@code stored}, null: none) does not: anything
   * but the time of the heartbeat, free space beyond {@link #FREE_SLACK} (or to or from none), or the stored one is
   * {@link #REFRESH} old.
   */
  static boolean worthWriting(PeerRecord stored, PeerRecord record) {
    if (stored == null || record.lastHeartbeat() - stored.lastHeartbeat() >= REFRESH.toMillis()) {
      return true;
    }
    long free = record.freeBytes();
    long was = stored.freeBytes();
    boolean freeMoved = Math.abs(free - was) > FREE_SLACK || (free == 0) != (was == 0);
    return freeMoved || !record.withLastHeartbeat(stored.lastHeartbeat()).withFreeBytes(was).equals(stored);
  }

  /**
   * Forgets what was written: every peer's next heartbeat is written again. For when waiting writes were lost (a group's
   * batch of heartbeat records that did not commit), so what they said reaches the store with the next heartbeats.
   */
  public void rewriteAll() {
    written.clear();
  }

  /** A peer leaving gracefully: DOWN at once. False if unknown. */
  public boolean leave(String id) throws IOException {
    PeerRecord old = peers.get(id);
    if (old == null) {
      return false;
    }
    save(old.withLeft(clock.millis()));
    lastSeenState.put(id, HostState.DOWN);
    LOG.info("peer {} left", id);
    events.add("left", id, "left the grid");
    return true;
  }

  /**
   * A compute host's heartbeat: UP while its job runs, DOWN when the job stops. The host id belongs to the
   * first {@code owner} (token id) that heartbeats it; another owner is refused ({@link Refused#forbidden}).
   * The admin passes a null owner: it may heartbeat any host, and binds none.
   */
  public void computeHeartbeat(String id, boolean up, String owner) throws IOException {
    requireId(id);
    ComputeRecord r;
    synchronized (compute) {
      ComputeRecord old = compute.get(id);
      String bound = old == null ? null : old.owner();
      if (owner != null && bound != null && !bound.equals(owner)) {
        throw Refused.forbidden("compute host " + id + " belongs to another token");
      }
      r = new ComputeRecord(id, up, clock.millis(), bound != null ? bound : owner);
      compute.put(id, r);
    }
    store.putSoon(TrackerStore.Family.COMPUTE, id.getBytes(StandardCharsets.UTF_8), JSON.writeValueAsBytes(r));
  }

  /** As {@link #computeHeartbeat(String, boolean, String)} by the admin (until the API passes the caller). */
  @Deprecated
  public void computeHeartbeat(String id, boolean up) throws IOException {
    computeHeartbeat(id, up, null);
  }

  /** Logs peers that went DOWN since the last check (heartbeats missed); returns how many. */
  public int detectFailures() {
    long behind = Math.max(0, ownDelay.getAsLong());
    if (behind >= BEHIND_NOTED.toMillis() && ownDelayMillis < BEHIND_NOTED.toMillis()) {
      LOG.warn("the tracker takes heartbeats {} ms late: peers get that much longer before they are DOWN", behind);
    }
    ownDelayMillis = behind;
    long now = clock.millis();
    int n = 0;
    for (PeerRecord r : peers.values()) {
      HostState s = effectiveState(r, now);
      HostState previous = lastSeenState.put(r.id(), s);
      if (s == HostState.DOWN && previous != null && previous != HostState.DOWN) {
        LOG.warn("peer {} is DOWN: no heartbeat for {} ms (timeout {} ms)", r.id(), now - r.lastHeartbeat(), timeout.toMillis());
        events.add("down", r.id(), "no heartbeat for " + (now - r.lastHeartbeat()) + " ms");
        n++;
      }
    }
    return n;
  }

  public List<PeerView> peers() {
    long now = clock.millis();
    List<PeerView> out = new ArrayList<>();
    for (PeerRecord r : peers.values()) {
      out.add(view(r, now));
    }
    return out; // in id order, as the map is
  }

  /** The ids of every known peer (DOWN ones too), in id order: a copy. */
  public List<String> ids() {
    return new ArrayList<>(peers.keySet());
  }

  /**
   * What placement ranks a peer on, for every known peer (DOWN ones too, with their effective state), in id order:
   * one pass over the records, without the {@link PeerView} (address, traffic) {@link #peers()} builds. Placement
   * reads it once a request (docs/simulation.md, "Findings").
   */
  public List<Standing> standings() {
    long now = clock.millis();
    List<Standing> out = new ArrayList<>();
    for (PeerRecord r : peers.values()) {
      out.add(new Standing(r.id(), effectiveState(r, now), r.paused(), r.freeBytes(), r.usedBytes(), diskRates.getOrDefault(r.id(), 0.0)));
    }
    return out;
  }

  /**
   * A peer's effective state, whether its owner paused it, its free space, the bytes it says it holds (its last
   * heartbeat's) and its disk's write rate (bytes/s; 0 when unknown), as {@link PeerView} has them.
   */
  public record Standing(String id, HostState state, boolean paused, long freeBytes, long usedBytes, double diskWriteBytesPerSecond) {}

  public PeerView peer(String id) {
    PeerRecord r = peers.get(id);
    return r == null ? null : view(r, clock.millis());
  }

  /** Current effective state of every peer, for the history sampler. */
  public Map<String, HostState> peerStates() {
    long now = clock.millis();
    Map<String, HostState> out = new java.util.HashMap<>();
    for (PeerRecord r : peers.values()) {
      out.put(r.id(), effectiveState(r, now));
    }
    return out;
  }

  /** Current state of every compute host (UP only while heartbeating within the timeout). */
  public Map<String, Boolean> computeStates() {
    long now = clock.millis();
    Map<String, Boolean> out = new java.util.HashMap<>();
    for (ComputeRecord r : compute.values()) {
      out.put(r.id(), r.up() && now - r.lastHeartbeat() <= timeout.toMillis());
    }
    return out;
  }

  /** Whether {@code id} left the grid gracefully (and has not registered again): its pieces are not to be asked for. */
  public boolean leftGracefully(String id) {
    PeerRecord r = peers.get(id);
    return r != null && r.left();
  }

  /**
   * When a peer's data becomes due for repair: the moment it left gracefully, or its last heartbeat
   * plus the timeout plus {@code grace} for one that stopped heartbeating. Long.MAX_VALUE while it
   * is up; Long.MIN_VALUE for an unknown peer.
   */
  public long repairDueAt(String id, Duration grace) {
    PeerRecord r = peers.get(id);
    if (r == null) {
      return Long.MIN_VALUE;
    }
    long now = clock.millis();
    if (effectiveState(r, now) != HostState.DOWN) {
      return Long.MAX_VALUE;
    }
    return r.left() ? r.lastHeartbeat() : r.lastHeartbeat() + timeout.toMillis() + grace.toMillis();
  }

  /**
   * Allows for the tracker's own delay in taking heartbeats ({@code millis}: its server's event loops' lag): a peer is
   * DOWN only after the timeout plus that delay, as failure detection last read it, so a tracker short of CPU or paused
   * does not mark the donors DOWN whose heartbeats wait for it.
   */
  public void allowForOwnDelay(LongSupplier millis) {
    this.ownDelay = millis;
  }

  private HostState effectiveState(PeerRecord r, long now) {
    if (r.left() || now - r.lastHeartbeat() > timeout.toMillis() + ownDelayMillis) {
      return HostState.DOWN;
    }
    return HostState.parse(r.reportedState());
  }

  private PeerView view(PeerRecord r, long now) {
    PeerTraffic.Sample t = traffic.of(r.id());
    return new PeerView(r.id(), r.address(), effectiveState(r, now).name(), r.freeBytes(), r.usedBytes(), r.quotaBytes(),
        r.fragments(), r.paused(), r.lastHeartbeat(), r.registeredAt(), r.version(), diskRates.getOrDefault(r.id(), 0.0),
        t == null ? null : new PeerView.Traffic(t.in(), t.out(), t.inPerSecond(), t.outPerSecond(), t.repairLastDay()));
  }

  private void save(PeerRecord r) throws IOException {
    remember(r);
    store.put(TrackerStore.Family.PEERS, r.id().getBytes(StandardCharsets.UTF_8), JSON.writeValueAsBytes(r));
    written.put(r.id(), r);
  }

  /** Puts a record in {@link #peers} and its address in {@link #byAddress} (a changed address moves there). */
  private void remember(PeerRecord r) {
    PeerRecord prev = peers.put(r.id(), r);
    String key = addressKey(r.address());
    if (prev != null && !addressKey(prev.address()).equals(key)) {
      byAddress.computeIfPresent(addressKey(prev.address()), (k, ids) -> {
        ids.remove(r.id());
        return ids.isEmpty() ? null : ids;
      });
    }
    byAddress.compute(key, (k, ids) -> {
      java.util.Set<String> out = ids == null ? ConcurrentHashMap.newKeySet() : ids;
      out.add(r.id());
      return out;
    });
  }

  private static void requireId(String id) {
    if (id == null || !id.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("id must be 1-64 characters of letters, digits, '.', '_' or '-', was '" + id + "'");
    }
  }

  /** A compute host's last heartbeat, and the token id it belongs to (null: none yet, or only the admin heartbeat it). */
  @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
  record ComputeRecord(String id, boolean up, long lastHeartbeat, String owner) {}
}
