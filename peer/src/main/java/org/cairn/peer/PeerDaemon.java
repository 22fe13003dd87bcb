package org.cairn.peer;

import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.HeartbeatResponse;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.availability.HostState;
import org.cairn.core.net.PeerClient;
import org.cairn.peer.gc.BadFragmentReports;
import org.cairn.peer.heartbeat.HeartbeatSchedule;
import org.cairn.peer.load.HostLoad;
import org.cairn.peer.server.Admission;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The donor peer: keeps its id in the data directory, registers with the tracker, heartbeats its
 * state (from the load monitor), free space (quota and disk, whichever is tighter) and pause flag,
 * re-registers when the tracker has forgotten it, and tells the tracker it is leaving on close.
 * Heartbeats run at the interval the tracker's answers name (the local setting until the first
 * answer). The tracker being unreachable is logged and retried at the heartbeat interval, never fatal.
 */
public final class PeerDaemon implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(PeerDaemon.class);
  static final String VERSION = "0.1.0";

  /** Bytes this peer's repairs read and sent since it started (the repair worker's count, once wired). */
  private volatile java.util.function.LongSupplier repairBytes = () -> 0;
  private final PeerConfig config;
  private final Clock clock;
  private final String id;
  /** This process among the peer's runs: the tracker tells a restart (claimed work lost) from a quota change by it. */
  private final String instance = Long.toHexString(new java.security.SecureRandom().nextLong());
  private final FragmentStore store;
  private volatile String address;
  private final TrackerClient tracker;
  private final HostLoad load;
  private final ScheduledExecutorService scheduler;
  private final HeartbeatSchedule heartbeats;
  /** The data plane to other peers: takes the data-plane key when a registration brings it. */
  private final PeerClient peers;
  private final BadFragmentReports bad;
  /** Told when the tracker has repair work queued for this peer. */
  private volatile Runnable repairQueued = () -> { };
  private final AtomicBoolean registered = new AtomicBoolean();
  /** Whether new pieces are taken now, and the state reported. */
  private final DonorAdmission admission;
  private volatile boolean trackerReachable = true;
  private volatile boolean closed;
  private final GridKeys keys;

  /**
   * @param id this peer's id ({@link PeerIdentity})
   * @param tracker the tracker client, holding this peer's own credential once it has one
   * @param keys the keys the tracker gave this peer (taken again from each registration answer)
   * @param space the space donated, against which PUTs are admitted
   * @param load the host's load, sampled each heartbeat
   * @param peers the data-plane client repair uses (its key is updated on registration)
   * @param bad reports of this peer's bad fragments, sent with each heartbeat
   * @param scheduler runs the heartbeat (and what else the runtime schedules on it)
   */
  PeerDaemon(PeerConfig config, Clock clock, FragmentStore store, String id, TrackerClient tracker, GridKeys keys, DonatedSpace space,
      HostLoad load, PeerClient peers, BadFragmentReports bad, ScheduledExecutorService scheduler) {
    this.config = config;
    this.space = space;
    this.load = load;
    this.clock = clock;
    this.store = store;
    this.id = id;
    this.tracker = tracker;
    this.keys = keys;
    this.peers = peers;
    this.bad = bad;
    this.scheduler = scheduler;
    this.admission = new DonorAdmission(store, space, load, config.paused());
    this.heartbeats = new HeartbeatSchedule(scheduler, this::tick, config.heartbeatInterval());
    LOG.info("fragment store: {} fragments, {} bytes ({} on disk) of a {} byte quota; durable writes {}", store.fragmentCount(),
        store.usedBytes(), store.diskBytes(), space.quotaBytes(), store.writeMode());
  }

  /** Called when a heartbeat answer says the tracker has repair work queued for this peer. */
  void onRepairQueued(Runnable r) {
    this.repairQueued = java.util.Objects.requireNonNull(r);
  }

  /** Sends pending bad-fragment reports soon, on the heartbeat thread (a fragment found corrupt). */
  void reportBadSoon() {
    if (!closed) {
      try {
        scheduler.execute(this::reportBad);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closing: reported at the next start's audit instead
      }
    }
  }

  /** Tells the tracker about bad fragments so repair rebuilds them; kept for the next try if it is away. */
  private void reportBad() {
    if (registered.get()) {
      bad.report();
    }
  }

  /** Starts heartbeating, advertising the data server's bound port. */
  void start(int boundPort) {
    String host = config.advertise() != null ? config.advertise() : config.listen().host();
    this.address = host + ":" + boundPort;
    heartbeats.start();
  }

  /** What the data server asks before it takes a PUT, and tells of its writers and reads. */
  Admission admission() {
    return admission;
  }

  public String id() {
    return id;
  }

  public String address() {
    return address;
  }

  public boolean registered() {
    return registered.get();
  }

  public void setPaused(boolean pause) {
    if (admission.setPaused(pause)) {
      scheduler.execute(this::tick);
    }
  }

  public boolean paused() {
    return admission.paused();
  }

  public HostState state() {
    return admission.state();
  }

  private HostState lastState = HostState.RUNNING;
  private String lastOutOfSpace;
  /** The space donated; the donor app changes the quota while the peer runs ({@link #setQuota}). */
  private final DonatedSpace space;

  /**
   * Donates {@code bytes} from now on, without a restart: the peer registers again with the new quota
   * (same id, same address), so nothing is repaired and no client loses its connection.
   */
  public void setQuota(long bytes) {
    long before = space.setQuota(bytes);
    if (before != bytes) {
      LOG.info("quota {} bytes (was {})", bytes, before);
      registered.set(false); // the registration carries the quota
      if (!closed && address != null) {
        scheduler.execute(this::tick);
      }
    }
  }

  public long quotaBytes() {
    return space.quotaBytes();
  }

  /**
   * Donor rules (the tray app's BOINC-like policies): while a reason is set the peer reports BUSY and
   * refuses new fragments and repair work, but keeps serving reads. Null clears it.
   */
  public void setBusyReason(String reason) {
    if (admission.setBusyReason(reason) && !closed && address != null) {
      scheduler.execute(this::tick);
    }
  }

  public String busyReason() {
    return admission.busyReason();
  }

  /** Bytes of fragments sent to readers since start (the donor's upload). */
  /** Reports, in each heartbeat, the bytes this peer's repairs read and sent since it started. */
  public void reportRepairTraffic(java.util.function.LongSupplier bytes) {
    this.repairBytes = java.util.Objects.requireNonNull(bytes);
  }

  public long servedBytes() {
    return admission.servedBytes();
  }

  /** Bytes the peer may still accept: the tighter of the quota and the disk's free space less the reserve. */
  public long freeBytes() {
    return space.freeBytes();
  }

  /** Bytes of stored fragments. */
  public long usedBytes() {
    return store.usedBytes();
  }

  /** Dead space the peer lets stand before it compacts for it ({@link DonatedSpace#deadSpaceAllowance}). */
  long deadSpaceAllowance() {
    return space.deadSpaceAllowance();
  }

  private void tick() {
    try {
      long now = clock.millis();
      load.observe(now);
      String full = store.outOfSpace();
      if (full != null) {
        if (store.checkWritable()) {
          LOG.info("the fragment store takes writes again (disk space returned)");
        } else if (!full.equals(lastOutOfSpace)) {
          LOG.warn("the disk is full: new pieces are refused until space returns ({})", full);
        }
      }
      lastOutOfSpace = store.outOfSpace();
      HostState state = state();
      if (state != lastState) {
        LOG.info("state {} -> {}: {}", lastState, state, load.describe());
        lastState = state;
      }
      if (!registered.get()) {
        long sentQuota = space.quotaBytes();
        long signedAt = clock.millis();
        HeartbeatResponse r = tracker.register(new RegisterRequest(id, address, state.name(), freeBytes(), usedBytes(),
            sentQuota, store.fragmentCount(), paused(), VERSION, keys.tlsPublicKey(), instance, keys.proveKey(id, address, signedAt),
            keys.tlsPublicKey() == null ? null : signedAt));
        keys.adopt(r, peers, tracker);
        registered.set(sentQuota == space.quotaBytes()); // a quota set during the call is sent by the next tick
        LOG.info("registered with {} as {} at {} ({})", tracker.base(), r.id(), address, state);
        heartbeats.adopt(r.heartbeatIntervalMillis());
        if (r.repairQueued() > 0) {
          repairQueued.run();
        }
      } else {
        FragmentStore.SoftState soft = store.softState();
        HeartbeatResponse r = tracker.heartbeat(id, new HeartbeatRequest(state.name(), freeBytes(), usedBytes(), store.fragmentCount(),
            paused(), config.reportDiskRate() ? store.sampleWriteRate() : 0, Long.toHexString(soft.boot()), soft.durable(),
            store.bytesWritten(), servedBytes(), repairBytes.getAsLong()));
        if (r == null) {
          LOG.info("tracker {} does not know this peer (restarted without its data?); registering again", tracker.base());
          registered.set(false);
          tick();
          return;
        }
        heartbeats.adopt(r.heartbeatIntervalMillis());
        if (r.repairQueued() > 0) {
          repairQueued.run();
        }
      }
      reportBad();
      if (!trackerReachable) {
        LOG.info("tracker {} reachable again", tracker.base());
        trackerReachable = true;
      }
    } catch (IOException e) {
      if (trackerReachable) {
        LOG.warn("heartbeat to {} failed: {}; retrying every {} ms", tracker.base(), e.getMessage(),
            heartbeats.intervalMillis());
        trackerReachable = false;
      }
    } catch (RuntimeException e) {
      LOG.error("heartbeat failed", e);
    }
  }

  /** Stops heartbeating. The runtime then stops the scheduler and calls {@link #close}. */
  void stop() {
    closed = true;
    heartbeats.stop();
  }

  /** Stops heartbeating and tells the tracker this peer is leaving. Idempotent. */
  @Override
  public synchronized void close() {
    boolean wasRegistered = registered.getAndSet(false);
    stop();
    if (wasRegistered) {
      leave();
    }
  }

  private void leave() {
    try {
      tracker.leave(id);
      LOG.info("left the grid at {}", tracker.base());
    } catch (TrackerHttp.TrackerException e) {
      if (e.status() != 404) { // 404: the tracker no longer knows this peer, so there is nothing to leave
        LOG.warn("could not tell the tracker this peer is leaving: {}", e.getMessage());
      }
    } catch (IOException e) {
      LOG.warn("could not tell the tracker this peer is leaving: {}", e.getMessage());
    }
  }
}
