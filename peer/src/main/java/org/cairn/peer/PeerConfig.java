package org.cairn.peer;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;

/** Validated peer settings; every error names the setting and the bad value. */
public record PeerConfig(
    URI tracker,
    Path dataDir,
    HostPort listen,
    String advertise,
    long quotaBytes,
    long minFreeBytes,
    GridToken token,
    Duration heartbeatInterval,
    double tau1,
    double tau2,
    int maxClients,
    boolean paused,
    String id,
    long bandwidthCap,
    long ioCapacity,
    Duration gcInterval,
    Duration gcGrace,
    long repairRate,
    int repairThreads,
    Duration scrubPeriod,
    long scrubMaxRate,
    boolean reportDiskRate,
    Duration softSyncInterval,
    java.util.List<URI> moreTrackers,
    org.cairn.peer.server.ConnectionLimits connectionLimits) {

  /** With the default data-plane connection limits ({@link org.cairn.peer.server.ConnectionLimits#DEFAULT}). */
  public PeerConfig(URI tracker, Path dataDir, HostPort listen, String advertise, long quotaBytes, long minFreeBytes, GridToken token,
      Duration heartbeatInterval, double tau1, double tau2, int maxClients, boolean paused, String id, long bandwidthCap,
      long ioCapacity, Duration gcInterval, Duration gcGrace, long repairRate, int repairThreads, Duration scrubPeriod,
      long scrubMaxRate, boolean reportDiskRate, Duration softSyncInterval, java.util.List<URI> moreTrackers) {
    this(tracker, dataDir, listen, advertise, quotaBytes, minFreeBytes, token, heartbeatInterval, tau1, tau2, maxClients, paused, id,
        bandwidthCap, ioCapacity, gcInterval, gcGrace, repairRate, repairThreads, scrubPeriod, scrubMaxRate, reportDiskRate,
        softSyncInterval, moreTrackers, org.cairn.peer.server.ConnectionLimits.DEFAULT);
  }

  /** One tracker (no other members to fail over to). */
  public PeerConfig(URI tracker, Path dataDir, HostPort listen, String advertise, long quotaBytes, long minFreeBytes, GridToken token,
      Duration heartbeatInterval, double tau1, double tau2, int maxClients, boolean paused, String id, long bandwidthCap,
      long ioCapacity, Duration gcInterval, Duration gcGrace, long repairRate, int repairThreads, Duration scrubPeriod,
      long scrubMaxRate, boolean reportDiskRate, Duration softSyncInterval) {
    this(tracker, dataDir, listen, advertise, quotaBytes, minFreeBytes, token, heartbeatInterval, tau1, tau2, maxClients, paused, id,
        bandwidthCap, ioCapacity, gcInterval, gcGrace, repairRate, repairThreads, scrubPeriod, scrubMaxRate, reportDiskRate,
        softSyncInterval, java.util.List.of());
  }

  /** Every tracker of the group: {@code tracker} first, then the others ({@code --tracker URL1,URL2,...}). */
  public java.util.List<URI> trackers() {
    java.util.List<URI> all = new java.util.ArrayList<>();
    all.add(tracker);
    all.addAll(moreTrackers);
    return all;
  }

  /** With soft writes made durable every second (the default). */
  public PeerConfig(URI tracker, Path dataDir, HostPort listen, String advertise, long quotaBytes, long minFreeBytes, GridToken token,
      Duration heartbeatInterval, double tau1, double tau2, int maxClients, boolean paused, String id, long bandwidthCap,
      long ioCapacity, Duration gcInterval, Duration gcGrace, long repairRate, int repairThreads, Duration scrubPeriod,
      long scrubMaxRate, boolean reportDiskRate) {
    this(tracker, dataDir, listen, advertise, quotaBytes, minFreeBytes, token, heartbeatInterval, tau1, tau2, maxClients, paused, id,
        bandwidthCap, ioCapacity, gcInterval, gcGrace, repairRate, repairThreads, scrubPeriod, scrubMaxRate, reportDiskRate,
        org.cairn.peer.store.FragmentStore.DEFAULT_SOFT_SYNC);
  }

  public PeerConfig {
    moreTrackers = moreTrackers == null ? java.util.List.of() : java.util.List.copyOf(moreTrackers);
    connectionLimits = connectionLimits == null ? org.cairn.peer.server.ConnectionLimits.DEFAULT : connectionLimits;
    if (tracker == null || tracker.getScheme() == null || !(tracker.getScheme().equals("http") || tracker.getScheme().equals("https"))
        || tracker.getHost() == null) {
      throw new IllegalArgumentException("tracker must be an http(s) URL like http://127.0.0.1:7600, was '" + tracker + "'");
    }
    if (quotaBytes <= 0) {
      throw new IllegalArgumentException("quota must be positive, was " + quotaBytes);
    }
    if (minFreeBytes < 0) {
      throw new IllegalArgumentException("min free space must be >= 0, was " + minFreeBytes);
    }
    if (heartbeatInterval.toMillis() < 100) {
      throw new IllegalArgumentException("heartbeat interval must be at least 100ms, was " + heartbeatInterval.toMillis() + "ms");
    }
    if (!(tau1 > 0 && tau1 < tau2 && tau2 <= 1)) {
      throw new IllegalArgumentException("need 0 < tau1 < tau2 <= 1 (fractions), were tau1=" + tau1 + " tau2=" + tau2);
    }
    if (maxClients < 1) {
      throw new IllegalArgumentException("max clients must be at least 1, was " + maxClients);
    }
    if (bandwidthCap < 0) {
      throw new IllegalArgumentException("bandwidth cap must be >= 0 (0: none), was " + bandwidthCap);
    }
    if (gcInterval.toMillis() < 100 || gcGrace.isNegative()) {
      throw new IllegalArgumentException("gc interval must be at least 100ms and gc grace >= 0, were "
          + gcInterval.toMillis() + "ms and " + gcGrace.toMillis() + "ms");
    }
    if (repairRate < 0 || repairThreads < 1 || repairThreads > 16) {
      throw new IllegalArgumentException("repair rate must be >= 0 (0: no limit) and repair threads 1-16, were " + repairRate
          + " and " + repairThreads);
    }
    if (scrubPeriod.toMillis() < 1000 || scrubMaxRate < 0) {
      throw new IllegalArgumentException("scrub period must be at least 1s and scrub max rate >= 0 (0: no limit), were "
          + scrubPeriod.toMillis() + "ms and " + scrubMaxRate);
    }
    if (ioCapacity <= 0) {
      throw new IllegalArgumentException("I/O capacity must be positive, was " + ioCapacity);
    }
    if (id != null && !id.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("id must be 1-64 letters, digits, '.', '_' or '-', was '" + id + "'");
    }
  }
}
