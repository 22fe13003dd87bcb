package org.cairn.tracker.api.route;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.member.TicketGrant;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.security.Ticket;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.auth.TicketIssuer;
import org.cairn.tracker.membership.Membership;

/** The data-plane tickets the tracker hands out with its answers (a manifest, a store's pending chunks, a repair job). */
public final class Grants {
  private final Credentials credentials;
  private final Membership membership;

  public Grants(Credentials credentials, Membership membership) {
    this.credentials = credentials;
    this.membership = membership;
  }

  /** Tickets for {@code op} on {@code chunks} at {@code peer}, issued to {@code who}. */
  List<TicketGrant> of(Ticket.Op op, PeerView peer, Principal who, List<ChunkId> chunks, Duration ttl) {
    List<TicketGrant> out = new ArrayList<>();
    for (Ticket t : credentials.tickets().issue(op, peer.id(), who.role().spec() + ":" + who.tokenId(), chunks, ttl)) {
      out.add(TicketGrant.of(peer.id(), peer.address(), t));
    }
    return out;
  }

  /** A repair job with READ tickets for its chunk on the sources and WRITE tickets on the targets. */
  RepairJob withTickets(RepairJob j, Principal who) {
    List<ChunkId> chunk = List.of(ChunkId.parse(j.chunk()));
    List<TicketGrant> grants = new ArrayList<>();
    Set<String> done = new HashSet<>();
    for (RepairJob.Piece s : j.sources()) {
      PeerView v = membership.peer(s.peer());
      if (v != null && done.add("R" + v.id())) {
        grants.addAll(of(Ticket.Op.READ, v, who, chunk, TicketIssuer.TTL));
      }
    }
    for (RepairJob.Piece t : j.targets()) {
      PeerView v = membership.peer(t.peer());
      if (v != null && done.add("W" + v.id())) {
        grants.addAll(of(Ticket.Op.WRITE, v, who, chunk, TicketIssuer.TTL));
      }
    }
    return j.withTickets(grants);
  }
}
