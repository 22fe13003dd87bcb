package org.cairn.core.api.repair;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/** {@code POST /api/v1/peers/{id}/repair}: a peer claims up to {@code max} repair jobs (null: 4). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RepairClaim(Integer max) {

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
