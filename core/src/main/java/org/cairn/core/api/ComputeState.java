package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** {@code POST /api/v1/compute/{id}/heartbeat}: a compute host's state, UP or DOWN (and the answer). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ComputeState(String id, String state) {}
