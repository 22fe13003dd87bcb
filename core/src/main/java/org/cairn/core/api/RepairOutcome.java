package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * What a peer reports for a repair job ({@code POST /api/v1/peers/{id}/repaired}): the target pieces
 * now durably stored, and, if any failed, why.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RepairOutcome(String id, List<RepairJob.Piece> placed, String error) {}
