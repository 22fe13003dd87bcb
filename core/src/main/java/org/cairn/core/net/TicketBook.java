package org.cairn.core.net;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.cairn.core.security.Ticket;

/**
 * The tickets the tracker granted for one peer, numbered in the order they arrived. A connection to
 * that peer remembers the number of the last ticket it presented and sends only those after it, so a
 * request costs nothing for the tickets already presented however many a resident client (agent,
 * mount) holds. Expired tickets are dropped as new ones arrive, and never presented (a connection
 * opened long after the last grant would otherwise present them, and the peer would close it).
 */
public final class TicketBook {
  private record Entry(long seq, Ticket ticket) {}

  /** Tickets to present, oldest first, and the number of the last ticket added when they were taken. */
  public record Page(List<Ticket> tickets, long upTo) {}

  /**
   * A ticket this close to its expiry is not presented: a peer refuses an expired ticket and closes the
   * connection, failing every request on it (and clocks differ a little between hosts).
   */
  static final long MARGIN_MILLIS = 5_000;
  /** Expired tickets are dropped at most this often (a pass is a scan of every ticket held). */
  static final long PRUNE_EVERY_MILLIS = 1_000;

  private final ArrayList<Entry> entries = new ArrayList<>(); // ascending seq
  private final Set<Ticket> held = new HashSet<>();
  private long lastSeq;
  private long nextPrune;

  /** Adds the tickets not held yet (a grant repeated by the tracker is kept once) and drops expired ones now and then. */
  public synchronized void add(Collection<Ticket> granted, long nowMillis) {
    if (nowMillis >= nextPrune) {
      nextPrune = nowMillis + PRUNE_EVERY_MILLIS;
      if (entries.removeIf(e -> e.ticket().expiresAt() <= nowMillis)) {
        held.clear();
        entries.forEach(e -> held.add(e.ticket()));
      }
    }
    for (Ticket t : granted) {
      if (t.expiresAt() > nowMillis && held.add(t)) {
        entries.add(new Entry(++lastSeq, t));
      }
    }
  }

  /** The number of the latest ticket added (0: none yet). */
  public synchronized long lastSeq() {
    return lastSeq;
  }

  /**
   * The held tickets numbered after {@code seq} that are still good at {@code nowMillis} (by more than
   * {@link #MARGIN_MILLIS}), oldest first, with the number they bring a reader up to.
   */
  public synchronized Page after(long seq, long nowMillis) {
    int lo = 0;
    int hi = entries.size();
    while (lo < hi) { // first entry with a number above seq
      int mid = (lo + hi) >>> 1;
      if (entries.get(mid).seq() <= seq) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    List<Ticket> out = new ArrayList<>(entries.size() - lo);
    for (int i = lo; i < entries.size(); i++) {
      Ticket t = entries.get(i).ticket();
      if (t.expiresAt() > nowMillis + MARGIN_MILLIS) {
        out.add(t);
      }
    }
    return new Page(out, lastSeq);
  }

  /** How many tickets are held (tests). */
  synchronized int size() {
    return entries.size();
  }
}
