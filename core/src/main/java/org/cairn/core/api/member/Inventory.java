package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code POST /api/v1/peers/{id}/inventory}: fragment keys (hex) a peer holds; the tracker answers
 * which are garbage (no index entry assigns them to this peer and no store in flight named them).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Inventory(List<String> keys) {

  /** The answer: the garbage keys (hex). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Garbage(List<String> garbage) {}
}
