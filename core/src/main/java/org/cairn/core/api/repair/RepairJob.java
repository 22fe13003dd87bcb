package org.cairn.core.api.repair;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.member.TicketGrant;
import org.cairn.core.availability.HostState;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.protocol.FragmentKey;

/**
 * One chunk's repair as the tracker hands it to a peer ({@code POST /api/v1/peers/{id}/repair}):
 * read m pieces from {@code sources} (in order, RUNNING holders first, holders listed DOWN last, asked
 * only when the others cannot give m), rebuild the pieces named in
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

  /** The bytes of the pieces this job rebuilds (what a claim's byte bound counts). */
  public long rebuiltBytes() {
    return fragmentBytes * (targets == null ? 0 : targets.size());
  }

  /** Fragment {@code index}'s tag. */
  public int tag(int index) {
    if (tags == null || index < 0 || index >= tags.size()) {
      throw new IllegalArgumentException("repair job " + id + " has no tag for fragment " + index);
    }
    return FragmentKey.parseTag(tags.get(index));
  }

  /*
   * The job's chunk as the read path takes it: its own coding, and at each source's index that
   * source with the piece's tag and the state the tracker listed it in, so the reader asks holders
   * listed DOWN last, as a fetch does (a source without a state is taken as RUNNING).
   */
  public LocatedChunk located() {
    int n = tags() == null ? 0 : tags().size();
    if (redundancy() != null) {
      n = Math.max(n, Redundancy.parse(redundancy()).totalFragments());
    }
    for (Piece p : sources()) {
      n = Math.max(n, p.index() + 1);
    }
    for (Piece p : targets()) {
      n = Math.max(n, p.index() + 1);
    }
    List<LocatedChunk.Holder> holders = new ArrayList<>(Collections.nCopies(n, null));
    for (Piece s : sources()) {
      holders.set(s.index(), new LocatedChunk.Holder(s.peer(), s.address(), sourceState(s.state()),
          FragmentKey.tagHex(tag(s.index()))));
    }
    return new LocatedChunk(chunk(), redundancy(), holders);
  }

  /** A source's state as the tracker saw it; RUNNING when it did not say, or said something this peer does not know. */
  private static HostState sourceState(String state) {
    if (state != null) {
      for (HostState s : HostState.values()) {
        if (s.name().equals(state)) {
          return s;
        }
      }
    }
    return HostState.RUNNING;
  }

  /**
   * Fragment {@code index} of the chunk, on {@code peer} at {@code address}; a source carries its
   * holder's {@code state} (RUNNING, FULL, LOADED, BUSY or DOWN) so the reader asks unloaded holders first and DOWN ones last
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
