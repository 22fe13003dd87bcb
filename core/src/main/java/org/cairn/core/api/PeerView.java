package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A peer as the tracker reports it ({@code GET /api/v1/peers}). {@code state} is the effective state:
 * {@code DOWN} once heartbeats stop for the timeout, otherwise what the peer last reported.
 * Times are milliseconds since the epoch. {@code diskWriteBytesPerSecond}: the rate the peer's disk
 * last took Cairn's writes (its heartbeat's; 0 when unknown), which placement uses beside the link.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PeerView(
    String id,
    String address,
    String state,
    long freeBytes,
    long usedBytes,
    long quotaBytes,
    long fragments,
    boolean paused,
    long lastHeartbeat,
    long registeredAt,
    String version,
    double diskWriteBytesPerSecond) {

  /** Without a disk rate (unknown). */
  public PeerView(String id, String address, String state, long freeBytes, long usedBytes, long quotaBytes, long fragments,
      boolean paused, long lastHeartbeat, long registeredAt, String version) {
    this(id, address, state, freeBytes, usedBytes, quotaBytes, fragments, paused, lastHeartbeat, registeredAt, version, 0);
  }
}
