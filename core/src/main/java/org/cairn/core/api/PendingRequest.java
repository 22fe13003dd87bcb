package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code POST /api/v1/stores/{session}/pending}: chunks (hex ids) a store in flight is about to send,
 * so GC spares their pieces until the commit; an empty list keeps the session alive. {@code hosts}:
 * the peer ids the store may send these chunks to; the answer carries a WRITE ticket for them on each.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PendingRequest(List<String> chunks, List<String> hosts) {
  public PendingRequest(List<String> chunks) {
    this(chunks, List.of());
  }

  /** The answer: how many chunks the session holds pending, and WRITE tickets for the named chunks on the hosts. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(String session, int pending, List<TicketGrant> tickets) {
    public Answer(String session, int pending) {
      this(session, pending, List.of());
    }
  }
}
