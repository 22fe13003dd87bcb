package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code POST /api/v1/stores/{session}/pending}: chunks (hex ids) a store in flight is about to send,
 * so GC spares their pieces until the commit; an empty list keeps the session alive.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PendingRequest(List<String> chunks) {

  /** The answer: how many chunks the session holds pending. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(String session, int pending) {}
}
