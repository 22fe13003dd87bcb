package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** {@code POST /api/v1/peers/{id}/heartbeat}: the peer's current state and space. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeartbeatRequest(String state, long freeBytes, long usedBytes, long fragments, boolean paused) {}
