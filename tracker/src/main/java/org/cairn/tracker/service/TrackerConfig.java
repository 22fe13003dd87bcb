package org.cairn.tracker.service;

import java.nio.file.Path;
import java.time.Duration;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;

/** Validated tracker settings; every error names the setting and the bad value. */
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

  /** How long a checkpoint set may stay incomplete before its parts are dropped, unless --set-timeout says. */
  public static final Duration DEFAULT_SET_TIMEOUT = Duration.ofHours(1);

  /** Without TLS (plain HTTP). */
  public TrackerConfig(Path dataDir, HostPort listen, GridToken token, Duration heartbeatInterval, Duration peerTimeout,
      Duration historySlot, Duration historyRetention, Duration historyWindow, Duration repairGrace, Duration repairInterval,
      int repairJobsPerPeer) {
    this(dataDir, listen, token, heartbeatInterval, peerTimeout, historySlot, historyRetention, historyWindow, repairGrace,
        repairInterval, repairJobsPerPeer, false, org.cairn.tracker.catalog.PendingStores.DEFAULT_HOLD, DEFAULT_SET_TIMEOUT);
  }

  public TrackerConfig {
    require(heartbeatInterval.toMillis() >= 100, "heartbeat interval must be at least 100ms, was " + heartbeatInterval.toMillis() + "ms");
    require(peerTimeout.compareTo(heartbeatInterval) > 0,
        "peer timeout must be longer than the heartbeat interval, was " + peerTimeout.toMillis() + "ms");
    require(historySlot.toMillis() >= 100, "history slot must be at least 100ms, was " + historySlot.toMillis() + "ms");
    require(historyRetention.compareTo(historySlot) >= 0, "history retention must be at least one slot");
    require(historyWindow.compareTo(historySlot) >= 0, "history window must be at least one slot");
    require(!repairGrace.isNegative(), "repair grace must be >= 0");
    require(repairInterval.toMillis() >= 100, "repair interval must be at least 100ms, was " + repairInterval.toMillis() + "ms");
    require(!gcHold.isNegative(), "gc hold must be >= 0");
    require(setTimeout.toMillis() >= 1000, "set timeout must be at least 1s, was " + setTimeout.toMillis() + "ms");
    require(repairJobsPerPeer >= 1 && repairJobsPerPeer <= 64, "repair jobs per peer must be 1-64, was " + repairJobsPerPeer);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
