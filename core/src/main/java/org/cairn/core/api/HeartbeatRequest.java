package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * {@code POST /api/v1/peers/{id}/heartbeat}: the peer's current state and space, and the rate its disk
 * takes Cairn's writes in bytes per second ({@code diskWriteBytesPerSecond}; 0 or absent: unknown).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused,
    double diskWriteBytesPerSecond) {

  /** Without a disk rate (unknown). */
  public HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused) {
    this(state, freeBytes, usedBytes, fragments, paused, 0);
  }
}
