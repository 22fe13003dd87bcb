package org.cairn.peer;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.config.HostPort;
import org.cairn.core.net.DataTls;
import org.cairn.core.security.GridToken;
import org.cairn.peer.server.ConnectionLimits;

/**
 * A peer's settings, typed and validated: what {@link PeerRuntime} (the peer's composition root)
 * is started with. {@code cairn-peer.jar} parses its flags and YAML into one ({@link PeerMain}, the
 * one parser); the donor app builds one from its settings file and changes it (a new quota) through
 * {@link #toBuilder()}; tests and in-process grids build one with {@link #builder}. The defaults of
 * every optional setting are the {@link Builder}'s. Every error names the setting and the bad value.
 *
 * @param directIo whether the fragment store writes segments with O_DIRECT where the file system
 *     allows it (false: through the page cache)
 * @param tlsWrapBytes plaintext bytes the data server's TLS handler wraps in one pass
 *     ({@link DataTls#handler(io.netty.handler.ssl.SslContext, io.netty.buffer.ByteBufAllocator, String, int, int)})
 * @param uploadCap bytes per second the data server sends, all connections together; 0: {@code bandwidthCap}
 * @param downloadCap bytes per second the data server receives, all connections together; 0: {@code bandwidthCap}
 */
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
    List<URI> moreTrackers,
    ConnectionLimits connectionLimits,
    boolean directIo,
    int tlsWrapBytes,
    long uploadCap,
    long downloadCap) {

  public PeerConfig {
    moreTrackers = moreTrackers == null ? List.of() : List.copyOf(moreTrackers);
    connectionLimits = connectionLimits == null ? ConnectionLimits.DEFAULT : connectionLimits;
    if (tracker == null || tracker.getScheme() == null || !(tracker.getScheme().equals("http") || tracker.getScheme().equals("https"))
        || tracker.getHost() == null) {
      throw new IllegalArgumentException("tracker must be an http(s) URL like http://127.0.0.1:7600, was '" + tracker + "'");
    }
    if (dataDir == null || token == null || listen == null) {
      throw new IllegalArgumentException("a peer needs a data directory, a grid token and a listen address, were " + dataDir + ", "
          + (token == null ? "none" : "a token") + " and " + listen);
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
    if (bandwidthCap < 0 || uploadCap < 0 || downloadCap < 0) {
      throw new IllegalArgumentException("bandwidth caps must be >= 0 (0: none), were " + bandwidthCap + " each way, " + uploadCap
          + " up and " + downloadCap + " down");
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
    if (softSyncInterval == null || softSyncInterval.isNegative()) {
      throw new IllegalArgumentException("soft sync interval must be >= 0, was " + softSyncInterval);
    }
    if (tlsWrapBytes < 1) {
      throw new IllegalArgumentException("TLS wrap size must be positive, was " + tlsWrapBytes);
    }
    if (id != null && !id.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("id must be 1-64 letters, digits, '.', '_' or '-', was '" + id + "'");
    }
  }

  /** Every tracker of the group: {@code tracker} first, then the others ({@code --tracker URL1,URL2,...}). */
  public List<URI> trackers() {
    List<URI> all = new ArrayList<>();
    all.add(tracker);
    all.addAll(moreTrackers);
    return all;
  }

  /** The settings a peer cannot do without; every other one starts at its default. */
  public static Builder builder(List<URI> trackers, Path dataDir, GridToken token, long quotaBytes) {
    return new Builder(trackers, dataDir, token, quotaBytes);
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(trackers(), dataDir, token, quotaBytes).listen(listen).advertise(advertise).minFreeBytes(minFreeBytes)
        .heartbeatInterval(heartbeatInterval).tau1(tau1).tau2(tau2).maxClients(maxClients).paused(paused).id(id).bandwidthCap(bandwidthCap)
        .ioCapacity(ioCapacity).gcInterval(gcInterval).gcGrace(gcGrace).repairRate(repairRate)
        .repairThreads(repairThreads).scrubPeriod(scrubPeriod).scrubMaxRate(scrubMaxRate)
        .reportDiskRate(reportDiskRate).softSyncInterval(softSyncInterval).connectionLimits(connectionLimits).directIo(directIo)
        .tlsWrapBytes(tlsWrapBytes).uploadCap(uploadCap).downloadCap(downloadCap);
  }

  /** The data server's cap on what it sends, bytes per second; 0: none. */
  public long effectiveUploadCap() {
    return uploadCap > 0 ? uploadCap : bandwidthCap;
  }

  /** The data server's cap on what it receives, bytes per second; 0: none. */
  public long effectiveDownloadCap() {
    return downloadCap > 0 ? downloadCap : bandwidthCap;
  }

  /** The share of a capped link repair may take: the data server keeps the rest while repair runs. */
  public static final double REPAIR_SHARE = 0.5;

  /**
   * What repair may send per second, within the donor's upload cap: {@code repairRate}, and at most {@link #REPAIR_SHARE}
   * of the cap when there is one; 0: no limit.
   */
  public long repairUploadRate() {
    return repairShare(effectiveUploadCap());
  }

  /** What repair may read per second, within the donor's download cap (as {@link #repairUploadRate}). */
  public long repairDownloadRate() {
    return repairShare(effectiveDownloadCap());
  }

  private long repairShare(long cap) {
    if (cap == 0) {
      return repairRate;
    }
    long share = Math.max(1, (long) (cap * REPAIR_SHARE));
    return repairRate == 0 ? share : Math.min(repairRate, share);
  }

  /** These settings with another quota (the donor app's "Set quota…"). */
  public PeerConfig withQuota(long bytes) {
    return toBuilder().quotaBytes(bytes).build();
  }

  /**
   * Builds a {@link PeerConfig}; its field initialisers are the one place the peer's defaults are
   * set ({@code cairn-peer --help} names the same ones). {@link #build()} validates.
   */
  public static final class Builder {
    private List<URI> trackers;
    private Path dataDir;
    private GridToken token;
    private long quotaBytes;
    private HostPort listen = HostPort.parse("127.0.0.1:0");
    private String advertise;
    private long minFreeBytes = 1L << 30;
    private Duration heartbeatInterval = Duration.ofSeconds(5);
    private double tau1 = 0.5;
    private double tau2 = 0.8;
    private int maxClients = 8;
    private boolean paused;
    private String id;
    private long bandwidthCap;
    private long uploadCap;
    private long downloadCap;
    private long ioCapacity = 100L << 20;
    private Duration gcInterval = Duration.ofMinutes(10);
    private Duration gcGrace = Duration.ofHours(1);
    private long repairRate = 32L << 20;
    private int repairThreads = 4;
    private Duration scrubPeriod = Duration.ofDays(7);
    private long scrubMaxRate = 8L << 20;
    private boolean reportDiskRate = true;
    private Duration softSyncInterval = org.cairn.peer.store.FragmentStore.DEFAULT_SOFT_SYNC;
    private ConnectionLimits connectionLimits = ConnectionLimits.DEFAULT;
    private boolean directIo = true;
    private int tlsWrapBytes = DataTls.DEFAULT_WRAP_BYTES;

    private Builder(List<URI> trackers, Path dataDir, GridToken token, long quotaBytes) {
      if (trackers == null || trackers.isEmpty()) {
        throw new IllegalArgumentException("a peer needs a tracker URL");
      }
      this.trackers = List.copyOf(trackers);
      this.dataDir = dataDir;
      this.token = token;
      this.quotaBytes = quotaBytes;
    }

    public Builder quotaBytes(long v) {
      quotaBytes = v;
      return this;
    }

    public Builder listen(HostPort v) {
      listen = v;
      return this;
    }

    /** The host clients are told to connect to; null: the listen host. */
    public Builder advertise(String v) {
      advertise = v;
      return this;
    }

    public Builder minFreeBytes(long v) {
      minFreeBytes = v;
      return this;
    }

    public Builder heartbeatInterval(Duration v) {
      heartbeatInterval = v;
      return this;
    }

    /** The I/O load fraction at which the peer is LOADED. */
    public Builder tau1(double v) {
      tau1 = v;
      return this;
    }

    /** The I/O load fraction at which the peer is BUSY. */
    public Builder tau2(double v) {
      tau2 = v;
      return this;
    }

    public Builder maxClients(int v) {
      maxClients = v;
      return this;
    }

    public Builder paused(boolean v) {
      paused = v;
      return this;
    }

    /** The peer id; null: generated once and kept in the data directory. */
    public Builder id(String v) {
      id = v;
      return this;
    }

    /** Bytes per second in each direction; 0: none. */
    public Builder bandwidthCap(long v) {
      bandwidthCap = v;
      return this;
    }

    /** Bytes per second the data server sends; 0: the cap in each direction. */
    public Builder uploadCap(long v) {
      uploadCap = v;
      return this;
    }

    /** Bytes per second the data server receives; 0: the cap in each direction. */
    public Builder downloadCap(long v) {
      downloadCap = v;
      return this;
    }

    public Builder ioCapacity(long v) {
      ioCapacity = v;
      return this;
    }

    /** How often held fragments are checked with the tracker for garbage. */
    public Builder gcInterval(Duration v) {
      gcInterval = v;
      return this;
    }

    /** How long a fragment stays garbage before it is deleted. */
    public Builder gcGrace(Duration v) {
      gcGrace = v;
      return this;
    }

    /** Repair traffic limit, bytes per second; 0: none. */
    public Builder repairRate(long v) {
      repairRate = v;
      return this;
    }

    /** Repair jobs run at once. */
    public Builder repairThreads(int v) {
      repairThreads = v;
      return this;
    }

    /** Time for one verification pass over the stored fragments. */
    public Builder scrubPeriod(Duration v) {
      scrubPeriod = v;
      return this;
    }

    /** The scrubber's read rate limit, bytes per second; 0: none. */
    public Builder scrubMaxRate(long v) {
      scrubMaxRate = v;
      return this;
    }

    public Builder reportDiskRate(boolean v) {
      reportDiskRate = v;
      return this;
    }

    public Builder softSyncInterval(Duration v) {
      softSyncInterval = v;
      return this;
    }

    public Builder connectionLimits(ConnectionLimits v) {
      connectionLimits = v;
      return this;
    }

    public Builder directIo(boolean v) {
      directIo = v;
      return this;
    }

    public Builder tlsWrapBytes(int v) {
      tlsWrapBytes = v;
      return this;
    }

    /** The settings, validated. */
    public PeerConfig build() {
      return new PeerConfig(trackers.get(0), dataDir, listen, advertise, quotaBytes, minFreeBytes, token, heartbeatInterval, tau1, tau2,
          maxClients, paused, id, bandwidthCap, ioCapacity, gcInterval, gcGrace, repairRate, repairThreads, scrubPeriod, scrubMaxRate,
          reportDiskRate, softSyncInterval, trackers.subList(1, trackers.size()), connectionLimits, directIo, tlsWrapBytes,
          uploadCap, downloadCap);
    }
  }
}
