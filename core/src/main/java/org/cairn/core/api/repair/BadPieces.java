package org.cairn.core.api.repair;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code POST /api/v1/peers/{holder}/bad}: pieces of {@code holder} found corrupt or missing, by who
 * found them (the peer's scrubber, a client's fetch or verify, a repair); the tracker forgets them so
 * repair rebuilds them elsewhere. Keys are fragment keys (chunk id, index, tag) in hex.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BadPieces(String reporter, List<Piece> fragments) {

  /** One bad piece and why. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Piece(String key, String reason) {}

  /** The answer: how many index entries changed. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(int changed) {}
}
