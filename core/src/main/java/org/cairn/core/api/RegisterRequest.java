package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** {@code POST /api/v1/peers}: a peer joining (or rejoining) with its data address and inventory summary. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RegisterRequest(
    String id,
    String address,
    String state,
    long freeBytes,
    long usedBytes,
    long quotaBytes,
    long fragments,
    boolean paused,
    String version) {}
