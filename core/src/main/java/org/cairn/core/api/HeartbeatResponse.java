package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** What the tracker answers a registration or heartbeat with: the interval it expects heartbeats at. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeartbeatResponse(String id, long heartbeatIntervalMillis, long serverTime) {}
