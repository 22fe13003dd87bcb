package org.cairn.tracker.events;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * What happened on the grid, newest last, for the status page: joins, departures, deaths, repairs,
 * scrub findings, policy deletions. A bounded in-memory ring (the logs keep the full story); each
 * event has a sequence number so a page can ask only for what is new.
 */
public final class EventLog {
  /** One event. {@code kind} is a short word (joined, left, down, repaired, bad-fragment, deleted, ...). */
  public record Event(long seq, long time, String kind, String subject, String message) {}

  private final Clock clock;
  private final int capacity;
  private final Deque<Event> events = new ArrayDeque<>();
  private long seq;

  public EventLog(Clock clock, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
    }
    this.clock = clock;
    this.capacity = capacity;
  }

  public synchronized void add(String kind, String subject, String message) {
    events.addLast(new Event(++seq, clock.millis(), kind, subject, message));
    while (events.size() > capacity) {
      events.removeFirst();
    }
  }

  /** Events with a sequence number above {@code after}, oldest first, at most {@code limit} (the newest ones). */
  public synchronized List<Event> since(long after, int limit) {
    List<Event> out = new ArrayList<>();
    for (Event e : events) {
      if (e.seq() > after) {
        out.add(e);
      }
    }
    return out.size() > limit ? new ArrayList<>(out.subList(out.size() - limit, out.size())) : out;
  }
}
