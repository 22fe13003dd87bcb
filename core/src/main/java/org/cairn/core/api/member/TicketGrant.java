package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import org.cairn.core.security.Ticket;

/**
 * A data-plane ticket the tracker signed ({@link Ticket}, base64url) for the peer {@code peer} at
 * data address {@code address}: the caller presents it there before reading or writing the chunks
 * it names.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TicketGrant(String peer, String address, String ticket) {
  public static TicketGrant of(String peer, String address, Ticket t) {
    return new TicketGrant(peer, address, t.toBase64());
  }

  /** The ticket; a malformed one throws IllegalArgumentException. */
  public Ticket decoded() {
    return Ticket.fromBase64(ticket);
  }

  @Override
  public String toString() {
    return "TicketGrant[" + peer + " at " + address + "]";
  }
}
