package org.cairn.tracker.service;

import java.nio.file.Path;
import java.time.Duration;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;

/**
 * A tracker's settings, typed and validated: every error names the command-line option and the bad
 * value. Built with {@link #builder(Path)}, which holds every default in one place (the same ones
 * {@code cairn-tracker} documents), so a caller names only what it changes:
 * {@code TrackerConfig.builder(dir).heartbeatInterval(Duration.ofSeconds(1)).tls(false).build()}.
 *
 * @param dataDir the tracker's data directory (database, keys, tokens, CA)
 * @param listen the HTTP API address (port 0 picks a free one)
 * @param token the operator's admin token from {@code --token-file}, or null: DATA/admin.token, made at the first start
 * @param heartbeatInterval how often peers are told to heartbeat
 * @param peerTimeout missed-heartbeat time after which a peer is DOWN
 * @param historySlot length of one availability-history slot
 * @param historyRetention how long availability history is kept
 * @param historyWindow the history window placement computes CRLS over
 * @param repairGrace how long a peer may be DOWN before its data is repaired
 * @param repairInterval how often the chunk index is scanned for repair
 * @param repairJobsPerPeer repair jobs one peer executes, and receives pieces for, at a time (1-64)
 * @param tls HTTPS with the tracker's CA (false: plain HTTP, {@code --insecure-plain-http})
 * @param gcHold after a start, how long every piece counts as part of a store in flight
 * @param setTimeout how long a checkpoint set may stay incomplete before its parts are dropped
 */
public record TrackerConfig(
    Path dataDir,
    HostPort listen,
    GridToken token,
    Duration heartbeatInterval,
    Duration peerTimeout,
    Duration historySlot,
    Duration historyRetention,
    Duration historyWindow,
    Duration repairGrace,
    Duration repairInterval,
    int repairJobsPerPeer,
    boolean tls,
    Duration gcHold,
    Duration setTimeout) {

  public static final HostPort DEFAULT_LISTEN = HostPort.parse("127.0.0.1:7600");
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(5);
  /** The peer timeout, unless set, is this many heartbeat intervals. */
  public static final int DEFAULT_PEER_TIMEOUT_HEARTBEATS = 3;
  public static final Duration DEFAULT_HISTORY_SLOT = Duration.ofMinutes(1);
  public static final Duration DEFAULT_HISTORY_RETENTION = Duration.ofDays(14);
  public static final Duration DEFAULT_HISTORY_WINDOW = Duration.ofDays(7);
  public static final Duration DEFAULT_REPAIR_GRACE = Duration.ofMinutes(10);
  public static final Duration DEFAULT_REPAIR_INTERVAL = Duration.ofSeconds(2);
  public static final int DEFAULT_REPAIR_JOBS_PER_PEER = 4;
  public static final Duration DEFAULT_GC_HOLD = org.cairn.tracker.catalog.PendingStores.DEFAULT_HOLD;
  /** How long a checkpoint set may stay incomplete before its parts are dropped, unless --set-timeout says. */
  public static final Duration DEFAULT_SET_TIMEOUT = Duration.ofHours(1);

  public TrackerConfig {
    require(dataDir != null, "--data is required");
    require(listen != null, "--listen is required");
    requireSet(heartbeatInterval, "--heartbeat-interval");
    requireSet(peerTimeout, "--peer-timeout");
    requireSet(historySlot, "--history-slot");
    requireSet(historyRetention, "--history-retention");
    requireSet(historyWindow, "--history-window");
    requireSet(repairGrace, "--repair-grace");
    requireSet(repairInterval, "--repair-interval");
    requireSet(gcHold, "--gc-hold");
    requireSet(setTimeout, "--set-timeout");
    require(heartbeatInterval.toMillis() >= 100, "--heartbeat-interval must be at least 100ms, was " + ms(heartbeatInterval));
    require(peerTimeout.compareTo(heartbeatInterval) > 0, "--peer-timeout must be longer than the heartbeat interval ("
        + ms(heartbeatInterval) + "), was " + ms(peerTimeout));
    require(historySlot.toMillis() >= 100, "--history-slot must be at least 100ms, was " + ms(historySlot));
    require(historyRetention.compareTo(historySlot) >= 0, "--history-retention must be at least one history slot ("
        + ms(historySlot) + "), was " + ms(historyRetention));
    require(historyWindow.compareTo(historySlot) >= 0, "--history-window must be at least one history slot ("
        + ms(historySlot) + "), was " + ms(historyWindow));
    require(!repairGrace.isNegative(), "--repair-grace must be >= 0, was " + ms(repairGrace));
    require(repairInterval.toMillis() >= 100, "--repair-interval must be at least 100ms, was " + ms(repairInterval));
    require(!gcHold.isNegative(), "--gc-hold must be >= 0, was " + ms(gcHold));
    require(setTimeout.toMillis() >= 1000, "--set-timeout must be at least 1s, was " + ms(setTimeout));
    require(repairJobsPerPeer >= 1 && repairJobsPerPeer <= 64, "--repair-jobs-per-peer must be 1-64, was " + repairJobsPerPeer);
  }

  /** Every setting at its default, for the tracker with data in {@code dataDir}. */
  public static Builder builder(Path dataDir) {
    return new Builder(dataDir);
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(dataDir).listen(listen).token(token).heartbeatInterval(heartbeatInterval).peerTimeout(peerTimeout)
        .historySlot(historySlot).historyRetention(historyRetention).historyWindow(historyWindow).repairGrace(repairGrace)
        .repairInterval(repairInterval).repairJobsPerPeer(repairJobsPerPeer).tls(tls).gcHold(gcHold).setTimeout(setTimeout);
  }

  private static String ms(Duration d) {
    return d.toMillis() + "ms";
  }

  private static void requireSet(Duration d, String option) {
    require(d != null, option + " is required");
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /**
   * Collects settings; {@link #build()} validates them all at once, so they may be set in any order
   * (a longer heartbeat interval before the longer peer timeout it needs).
   */
  public static final class Builder {
    private final Path dataDir;
    private HostPort listen = DEFAULT_LISTEN;
    private GridToken token;
    private Duration heartbeatInterval = DEFAULT_HEARTBEAT_INTERVAL;
    private Duration peerTimeout; // null: DEFAULT_PEER_TIMEOUT_HEARTBEATS heartbeat intervals
    private Duration historySlot = DEFAULT_HISTORY_SLOT;
    private Duration historyRetention = DEFAULT_HISTORY_RETENTION;
    private Duration historyWindow = DEFAULT_HISTORY_WINDOW;
    private Duration repairGrace = DEFAULT_REPAIR_GRACE;
    private Duration repairInterval = DEFAULT_REPAIR_INTERVAL;
    private int repairJobsPerPeer = DEFAULT_REPAIR_JOBS_PER_PEER;
    private boolean tls = true;
    private Duration gcHold = DEFAULT_GC_HOLD;
    private Duration setTimeout = DEFAULT_SET_TIMEOUT;

    private Builder(Path dataDir) {
      this.dataDir = dataDir;
    }

    public Builder listen(HostPort value) {
      listen = value;
      return this;
    }

    /** The operator's admin token ({@code --token-file}); null (the default): DATA/admin.token. */
    public Builder token(GridToken value) {
      token = value;
      return this;
    }

    public Builder heartbeatInterval(Duration value) {
      heartbeatInterval = value;
      return this;
    }

    /** Null (the default): three heartbeat intervals. */
    public Builder peerTimeout(Duration value) {
      peerTimeout = value;
      return this;
    }

    public Builder historySlot(Duration value) {
      historySlot = value;
      return this;
    }

    public Builder historyRetention(Duration value) {
      historyRetention = value;
      return this;
    }

    public Builder historyWindow(Duration value) {
      historyWindow = value;
      return this;
    }

    public Builder repairGrace(Duration value) {
      repairGrace = value;
      return this;
    }

    public Builder repairInterval(Duration value) {
      repairInterval = value;
      return this;
    }

    public Builder repairJobsPerPeer(int value) {
      repairJobsPerPeer = value;
      return this;
    }

    /** HTTPS with the tracker's CA (the default); false serves plain HTTP. */
    public Builder tls(boolean value) {
      tls = value;
      return this;
    }

    public Builder gcHold(Duration value) {
      gcHold = value;
      return this;
    }

    public Builder setTimeout(Duration value) {
      setTimeout = value;
      return this;
    }

    /** The settings, validated; an IllegalArgumentException names the first bad one. */
    public TrackerConfig build() {
      Duration timeout = peerTimeout != null || heartbeatInterval == null ? peerTimeout
          : heartbeatInterval.multipliedBy(DEFAULT_PEER_TIMEOUT_HEARTBEATS);
      return new TrackerConfig(dataDir, listen, token, heartbeatInterval, timeout, historySlot,
          historyRetention, historyWindow, repairGrace, repairInterval, repairJobsPerPeer, tls, gcHold, setTimeout);
    }
  }
}
