package org.cairn.tracker.auth;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.security.Ticket;
import org.cairn.core.security.TicketSigner;

/**
 * Makes data-plane tickets ({@link Ticket}) with the tracker's key ({@code DATA/ticket.key}): who
 * may read or write which chunks on which peer, for {@link #TTL}. Callers decide whether the
 * requester may have them; this class only makes them.
 */
public final class TicketIssuer {
  /** How long a ticket holds: longer than a large fetch or store, short enough that a leaked one soon dies. */
  public static final Duration TTL = Duration.ofMinutes(30);

  private final TicketSigner signer;
  private final Clock clock;

  public TicketIssuer(TicketSigner signer, Clock clock) {
    this.signer = signer;
    this.clock = clock;
  }

  /** Peer {@code peerId}'s own ticket key (base64): what it checks its tickets with. */
  public String peerKey(String peerId) {
    return java.util.Base64.getEncoder().encodeToString(signer.peerKey(peerId));
  }

  /** Tickets for {@code op} on {@code peer}'s pieces of {@code chunks} (split when there are more than a ticket names). */
  public List<Ticket> issue(Ticket.Op op, String peer, String requester, List<ChunkId> chunks, Duration ttl) {
    List<Ticket> out = new ArrayList<>();
    long until = clock.millis() + ttl.toMillis();
    String who = requester.length() > 64 ? requester.substring(0, 64) : requester;
    for (int from = 0; from < chunks.size(); from += Ticket.MAX_CHUNKS) {
      List<ChunkId> part = chunks.subList(from, Math.min(chunks.size(), from + Ticket.MAX_CHUNKS));
      out.add(signer.sign(new Ticket(op, until, peer, who, part, null)));
    }
    return out;
  }

  public List<Ticket> issue(Ticket.Op op, String peer, String requester, List<ChunkId> chunks) {
    return issue(op, peer, requester, chunks, TTL);
  }
}
