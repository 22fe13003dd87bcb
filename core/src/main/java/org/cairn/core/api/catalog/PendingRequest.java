package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.member.TicketGrant;

/**
 * {@code POST /api/v1/stores/{session}/pending}: chunks (hex ids) a store in flight is about to send,
 * so GC spares their pieces until the commit; an empty list keeps the session alive. {@code app}: the
 * app the store is for (the session is bound to it and to its caller). {@code hosts}: the peer ids the
 * store may send these chunks to; the answer carries a WRITE ticket for them on each. At most
 * {@link #MAX_CHUNKS} chunks per call ({@link TrackerClient#pending} splits longer lists).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PendingRequest(String app, List<String> chunks, List<String> hosts) {
  /** The most chunks one call names (a store names those identified in 20 ms, or all again after a tracker restart). */
  public static final int MAX_CHUNKS = 10_000;

  public PendingRequest(String app, List<String> chunks) {
    this(app, chunks, List.of());
  }

  /** The answer: how many chunks the session holds pending, and WRITE tickets for the named chunks on the hosts. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(String session, int pending, List<TicketGrant> tickets) {
    public Answer(String session, int pending) {
      this(session, pending, List.of());
    }
  }
}
