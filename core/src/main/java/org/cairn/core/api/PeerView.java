package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A peer as the tracker reports it ({@code GET /api/v1/peers}). {@code state} is the effective state:
 * {@code DOWN} once heartbeats stop for the timeout, otherwise what the peer last reported.
 * Times are milliseconds since the epoch.
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
    String version) {}
