package org.cairn.core.api.repair;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code POST /api/v1/peers/{id}/repair}: a peer claims a batch of repair jobs, one chunk each: up to {@code max} jobs
 * (null: 4) and, when {@code maxBytes} is given, jobs whose rebuilt pieces come to at most that many bytes (the first
 * job is handed out whatever its size). A peer that predates {@code maxBytes} does not send it and is bounded by the
 * tracker's jobs-per-peer count; a tracker that predates it ignores it and hands out at most its jobs-per-peer.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RepairClaim(Integer max, Long maxBytes) {
  /** The most jobs one batch claim is handed. */
  public static final int MAX_BATCH_JOBS = 256;

  public RepairClaim(Integer max) {
    this(max, null);
  }

  /** The answer: the jobs claimed, and how many remain queued. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Jobs(List<RepairJob> jobs, int queued) {}

  /** {@code POST /api/v1/peers/{id}/repaired}: what became of claimed jobs. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Report(List<RepairOutcome> outcomes) {}

  /** The answer to a report. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Accepted(int accepted) {}
}
