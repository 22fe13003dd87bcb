package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A peer as the tracker reports it ({@code GET /api/v1/peers}). {@code state} is the effective state:
 * {@code DOWN} once heartbeats stop for the timeout, otherwise what the peer last reported.
 * Times are milliseconds since the epoch. {@code diskWriteBytesPerSecond}: the rate the peer's disk
 * last took Cairn's writes (its heartbeat's; 0 when unknown), which placement uses beside the link.
 * {@code traffic}: what it has taken in and sent out ({@link Traffic}).
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
    double diskWriteBytesPerSecond,
    Traffic traffic) {

  /**
   * The peer's data-plane traffic: bytes of pieces stored ({@code in}) and served ({@code out}) since it
   * started, and per second over its last heartbeat interval; {@code repairLastDay}: the bytes its repairs read and
   * sent over the last 24 hours as this tracker heard them (null from a peer that does not report repair traffic).
   * Null from peers that do not report it.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Traffic(long in, long out, double inPerSecond, double outPerSecond, Long repairLastDay) {
    public Traffic(long in, long out, double inPerSecond, double outPerSecond) {
      this(in, out, inPerSecond, outPerSecond, null);
    }
  }

  public PeerView(String id, String address, String state, long freeBytes, long usedBytes, long quotaBytes, long fragments,
      boolean paused, long lastHeartbeat, long registeredAt, String version, double diskWriteBytesPerSecond) {
    this(id, address, state, freeBytes, usedBytes, quotaBytes, fragments, paused, lastHeartbeat, registeredAt, version,
        diskWriteBytesPerSecond, null);
  }

  /** Without a disk rate (unknown). */
  public PeerView(String id, String address, String state, long freeBytes, long usedBytes, long quotaBytes, long fragments,
      boolean paused, long lastHeartbeat, long registeredAt, String version) {
    this(id, address, state, freeBytes, usedBytes, quotaBytes, fragments, paused, lastHeartbeat, registeredAt, version, 0);
  }
}
