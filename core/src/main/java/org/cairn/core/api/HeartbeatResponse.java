package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What the tracker answers a registration or heartbeat with: the interval it expects heartbeats at,
 * and how many repair jobs wait (a peer that may execute them claims with POST /peers/{id}/repair).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeartbeatResponse(String id, long heartbeatIntervalMillis, long serverTime, int repairQueued) {}
