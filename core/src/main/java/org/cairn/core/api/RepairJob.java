package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * One chunk's repair as the tracker hands it to a peer ({@code POST /api/v1/peers/{id}/repair}):
 * read m pieces from {@code sources} (in order, RUNNING holders first), rebuild the pieces named in
 * {@code targets} and store each durably on its peer, then report a {@link RepairOutcome}.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RepairJob(String id, String app, String chunk, String redundancy, long fragmentBytes, List<Piece> sources,
    List<Piece> targets) {

  /** Fragment {@code index} of the chunk, on {@code peer} at {@code address}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Piece(int index, String peer, String address) {}
}
