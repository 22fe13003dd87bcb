package org.cairn.gui;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * What the donor did, for its activity view: the last {@link #KEEP} events (registered, state changes
 * and why, pause, quota and settings changes, restarts), newest last.
 */
final class Activity {
  static final int KEEP = 200;

  /** One event. */
  record Event(Instant at, String what) {}

  private final ArrayDeque<Event> events = new ArrayDeque<>();

  synchronized void add(String what) {
    events.addLast(new Event(Instant.now(), what));
    while (events.size() > KEEP) {
      events.removeFirst();
    }
  }

  synchronized List<Event> events() {
    return new ArrayList<>(events);
  }
}
