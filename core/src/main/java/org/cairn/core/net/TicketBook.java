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
 * mount) holds. Expired tickets are dropped as new ones arrive; the numbers of the others stay.
 */
public final class TicketBook {
  private record Entry(long seq, Ticket ticket) {}

  /** Tickets to present, oldest first, and the number of the last ticket added when they were taken. */
  public record Page(List<Ticket> tickets, long upTo) {}

  private final ArrayList<Entry> entries = new ArrayList<>(); // ascending seq
  private final Set<Ticket> held = new HashSet<>();
  private long lastSeq;

  /** Adds the tickets not held yet (a grant repeated by the tracker is kept once) and drops expired ones. */
  public synchronized void add(Collection<Ticket> granted, long nowMillis) {
    if (entries.removeIf(e -> e.ticket().expiresAt() <= nowMillis)) {
      held.clear();
      entries.forEach(e -> held.add(e.ticket()));
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

  /** The held tickets numbered after {@code seq}, oldest first, with the number they bring a reader up to. */
  public synchronized Page after(long seq) {
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
      out.add(entries.get(i).ticket());
    }
    return new Page(out, lastSeq);
  }

  /** How many tickets are held (tests). */
  synchronized int size() {
    return entries.size();
  }
}
