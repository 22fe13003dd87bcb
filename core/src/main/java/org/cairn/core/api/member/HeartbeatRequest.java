package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST /api/v1/peers/{id}/heartbeat}: the peer's current state and space, and the rate its disk
 * takes Cairn's writes in bytes per second ({@code diskWriteBytesPerSecond}; 0 or absent: unknown).
 * {@code softBoot} (hex) and {@code softDurable}: the peer's boot id and the highest soft write
 * number it has made durable under it (absent from peers without soft writes). {@code bytesIn} and
 * {@code bytesOut}: bytes of pieces the peer has stored and served since it started (its traffic).
 * {@code repairBytes}: bytes the peer has read and sent executing repairs since it started (absent from peers that
 * predate it; the tracker then shows no repair traffic for them).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused,
    double diskWriteBytesPerSecond, String softBoot, Long softDurable, Long bytesIn, Long bytesOut, Long repairBytes) {

  public HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused,
      double diskWriteBytesPerSecond, String softBoot, Long softDurable, Long bytesIn, Long bytesOut) {
    this(state, freeBytes, usedBytes, fragments, paused, diskWriteBytesPerSecond, softBoot, softDurable, bytesIn, bytesOut, null);
  }

  public HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused,
      double diskWriteBytesPerSecond, String softBoot, Long softDurable) {
    this(state, freeBytes, usedBytes, fragments, paused, diskWriteBytesPerSecond, softBoot, softDurable, null, null);
  }

  public HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused,
      double diskWriteBytesPerSecond) {
    this(state, freeBytes, usedBytes, fragments, paused, diskWriteBytesPerSecond, null, null);
  }

  /** Without a disk rate (unknown). */
  public HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused) {
    this(state, freeBytes, usedBytes, fragments, paused, 0);
  }
}
