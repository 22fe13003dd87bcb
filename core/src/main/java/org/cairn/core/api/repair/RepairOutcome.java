package org.cairn.core.api.repair;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * What a peer reports for a repair job ({@code POST /api/v1/peers/{id}/repaired}): the target pieces
 * now durably stored, if any failed why, and the sources listed DOWN it asked and could not reach
 * ({@code unreachable}, peer ids: the tracker stops counting them as sources for a while).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RepairOutcome(String id, List<RepairJob.Piece> placed, String error, List<String> unreachable) {
  public RepairOutcome(String id, List<RepairJob.Piece> placed, String error) {
    this(id, placed, error, List.of());
  }

  public RepairOutcome {
    unreachable = unreachable == null ? List.of() : unreachable;
  }
}
