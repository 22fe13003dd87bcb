package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST /api/v1/bandwidth}: available bandwidth from compute host {@code client} to {@code peer}
 * (FALCON §3.2.2), measured passively during a store (source null) or by a probe ({@code probe}).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BandwidthReport(String client, String peer, double bytesPerSecond, String source) {}
