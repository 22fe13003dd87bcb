package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code POST /api/v1/tickets} (admin only): tickets for {@code op} (READ or WRITE) on peer
 * {@code peer}'s pieces of {@code chunks} (hex ids), lasting {@code ttlSeconds} (null: the
 * tracker's default). Clients and peers get their tickets with the answers that need them
 * (manifest, pending, repair jobs); this route is for operators' tools.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TicketRequest(String op, String peer, List<String> chunks, Long ttlSeconds) {
  /** The answer. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(List<TicketGrant> tickets) {}
}
