package org.cairn.peer;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.core.availability.HostState;
import org.cairn.core.protocol.Refusal;
import org.cairn.peer.load.HostLoad;
import org.cairn.peer.server.Admission;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this donor takes new pieces now, and the state it reports: paused by the donor, BUSY by the
 * donor's rules (a reason set), the host's load and the writers connected ({@link HostLoad}), the
 * fragment store's disk and the donated space. Reads are always served; they only count towards the
 * donor's upload.
 */
final class DonorAdmission implements Admission {
  private static final Logger LOG = LoggerFactory.getLogger(DonorAdmission.class);

  private final FragmentStore store;
  private final DonatedSpace space;
  private final HostLoad load;
  private final AtomicBoolean paused;
  private final AtomicInteger activeClients = new AtomicInteger();
  private final AtomicLong servedBytes = new AtomicLong();
  private volatile String busyReason;

  DonorAdmission(FragmentStore store, DonatedSpace space, HostLoad load, boolean paused) {
    this.store = store;
    this.space = space;
    this.load = load;
    this.paused = new AtomicBoolean(paused);
  }

  @Override
  public Refusal admit(long bytes) {
    if (paused.get()) {
      return Refusal.PAUSED;
    }
    HostState s = state();
    if (s == HostState.BUSY) {
      return Refusal.BUSY;
    }
    if (s == HostState.FULL) {
      return Refusal.FULL;
    }
    if (store.outOfSpace() != null) {
      return Refusal.DISK;
    }
    if (space.overQuotaWith(bytes)) {
      store.requestDeadSpaceCompaction(space.deadSpaceAllowance());
      return Refusal.QUOTA;
    }
    if (space.freeBytes() < bytes) {
      return Refusal.DISK;
    }
    return null;
  }

  @Override
  public void writerStarted() {
    activeClients.incrementAndGet();
  }

  @Override
  public void writerFinished() {
    activeClients.decrementAndGet();
  }

  @Override
  public void served(long bytes) {
    servedBytes.addAndGet(bytes);
  }

  /** Bytes of fragments sent to readers since start (the donor's upload). */
  long servedBytes() {
    return servedBytes.get();
  }

  /** BUSY while the donor's rules give a reason, else what the host's load and the writers make it. */
  HostState state() {
    if (busyReason != null) {
      return HostState.BUSY;
    }
    return load.state(activeClients.get());
  }

  boolean paused() {
    return paused.get();
  }

  /** Pauses or resumes donating; true if that changed anything. */
  boolean setPaused(boolean pause) {
    if (paused.getAndSet(pause) == pause) {
      return false;
    }
    LOG.info("donating {}", pause ? "paused: new fragments are refused, stored ones are still served" : "resumed");
    return true;
  }

  String busyReason() {
    return busyReason;
  }

  /** Sets (or, with null, clears) the donor rules' reason to be BUSY; true if that changed anything. */
  boolean setBusyReason(String reason) {
    String before = busyReason;
    busyReason = reason;
    if (Objects.equals(before, reason)) {
      return false;
    }
    LOG.info(reason == null ? "donor rules: no longer busy" : "donor rules: BUSY ({})", reason);
    return true;
  }
}
