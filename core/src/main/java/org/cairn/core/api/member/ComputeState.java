package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST /api/v1/compute/{id}/heartbeat}: a compute host's state, UP or DOWN; the answer adds
 * the tracker's heartbeat interval (a host reporting less often is timed out between reports).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ComputeState(String id, String state, Long intervalMillis) {
  public ComputeState(String id, String state) {
    this(id, state, null);
  }
}
