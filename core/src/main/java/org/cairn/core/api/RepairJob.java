package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * One chunk's repair as the tracker hands it to a peer ({@code POST /api/v1/peers/{id}/repair}):
 * read m pieces from {@code sources} (in order, RUNNING holders first), rebuild the pieces named in
 * {@code targets} and store each durably on its peer, then report a {@link RepairOutcome}.
 * {@code tags} holds each fragment's tag (8 hex digits, by index): sources are read by chunk, index
 * and tag, and a rebuilt piece must come out with its index's tag. {@code tickets}: READ tickets for
 * the chunk on the sources and WRITE tickets on the targets, for the executor to present.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RepairJob(String id, String app, String chunk, String redundancy, long fragmentBytes, List<Piece> sources,
    List<Piece> targets, List<String> tags, List<TicketGrant> tickets) {
  public RepairJob(String id, String app, String chunk, String redundancy, long fragmentBytes, List<Piece> sources,
      List<Piece> targets, List<String> tags) {
    this(id, app, chunk, redundancy, fragmentBytes, sources, targets, tags, List.of());
  }

  public RepairJob {
    tickets = tickets == null ? List.of() : tickets;
  }

  /** This job with tickets for its executor. */
  public RepairJob withTickets(List<TicketGrant> granted) {
    return new RepairJob(id, app, chunk, redundancy, fragmentBytes, sources, targets, tags, granted);
  }

  /** Fragment {@code index}'s tag. */
  public int tag(int index) {
    if (tags == null || index < 0 || index >= tags.size()) {
      throw new IllegalArgumentException("repair job " + id + " has no tag for fragment " + index);
    }
    return org.cairn.core.protocol.FragmentKey.parseTag(tags.get(index));
  }

  /**
   * Fragment {@code index} of the chunk, on {@code peer} at {@code address}; a source carries its
   * holder's {@code state} (RUNNING, FULL, LOADED or BUSY) so the reader asks unloaded holders first
   * (null for targets, and from a tracker that predates it).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
  public record Piece(int index, String peer, String address, String state) {
    public Piece(int index, String peer, String address) {
      this(index, peer, address, null);
    }
  }
}
