package org.cairn.core.read;

import java.util.List;
import org.cairn.core.api.member.TicketGrant;
import org.cairn.core.net.PeerClient;

/** Hands the tickets an answer from the tracker carried to the process's peer client, which presents them. */
public final class Tickets {
  private Tickets() {}

  public static void present(PeerClient peers, List<TicketGrant> grants) {
    if (grants == null) {
      return;
    }
    for (TicketGrant g : grants) {
      if (g != null && g.address() != null) {
        peers.addTickets(g.address(), List.of(g.decoded()));
      }
    }
  }
}
