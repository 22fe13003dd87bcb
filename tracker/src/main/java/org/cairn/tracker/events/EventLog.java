package org.cairn.tracker.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happened on the grid, newest last, for the status page: joins, departures, deaths, repairs,
 * scrub findings, policy deletions. The newest {@code capacity} events, each with a sequence number so
 * a page can ask only for what is new; with a store, they are kept in it too (a tracker restart, or a
 * new leader of a tracker group, shows them again, numbered on from the last). Adding an event never waits for the
 * store: the event waits to be written with the heartbeat records ({@link TrackerStore#putSoon}), and the events that
 * fell off the end are deleted by {@link #pruneStored} on the tracker's scheduler, not by whoever added the event (in a
 * group a delete is a log round trip, and a heartbeat reporting a new state adds an event).
 */
public final class EventLog {
  private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One event. {@code kind} is a short word (joined, left, down, repaired, bad-fragment, deleted, ...);
   * {@code app}: the app it is about (who may see it), null for one about the grid (a peer, the tracker).
   */
  @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
  public record Event(long seq, long time, String kind, String subject, String message, String app) {
    public Event(long seq, long time, String kind, String subject, String message) {
      this(seq, time, kind, subject, message, null);
    }
  }

  private final Clock clock;
  private final int capacity;
  private final TrackerStore store;
  private final Deque<Event> events = new ArrayDeque<>();
  private long seq;
  /** The stored events up to this number are deleted (or were never there). */
  private long prunedTo;

  /** Events in memory only. */
  public EventLog(Clock clock, int capacity) {
    this(clock, capacity, null);
  }

  /** Events kept in {@code store} too: the newest {@code capacity} of them are read back now. */
  public EventLog(Clock clock, int capacity, TrackerStore store) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
    }
    this.clock = clock;
    this.capacity = capacity;
    this.store = store;
    if (store != null) {
      try {
        long[] first = {Long.MAX_VALUE};
        store.scan(TrackerStore.Family.EVENTS, new byte[0], (key, value) -> {
          events.addLast(JSON.readValue(value, Event.class));
          first[0] = Math.min(first[0], events.getLast().seq());
          if (events.size() > capacity) {
            events.removeFirst();
          }
          return true;
        });
        prunedTo = first[0] == Long.MAX_VALUE ? 0 : first[0] - 1;
      } catch (IOException e) {
        LOG.warn("could not read the stored events (the status page starts with none): {}", e.toString());
      }
      seq = events.isEmpty() ? 0 : events.getLast().seq();
    }
  }

  /** An event about the grid (a peer, the tracker): every caller of the events may see it. */
  public void add(String kind, String subject, String message) {
    addFor(null, kind, subject, message);
  }

  /** An event about {@code app} (null: about none): only callers whose scope covers the app see it. */
  public synchronized void addFor(String app, String kind, String subject, String message) {
    Event e = new Event(++seq, clock.millis(), kind, subject, message, app);
    events.addLast(e);
    while (events.size() > capacity) {
      events.removeFirst();
    }
    if (store != null) {
      keep(e);
    }
  }

  /** Stores {@code e} with the heartbeat records (in a group: no log entry of its own). */
  private void keep(Event e) {
    try {
      store.putSoon(TrackerStore.Family.EVENTS, key(e.seq()), JSON.writeValueAsBytes(e));
    } catch (IOException x) {
      LOG.warn("could not store event {} ({} {}): {}", e.seq(), e.kind(), e.subject(), x.toString());
    }
  }

  /** The most stored events one {@link #pruneStored} deletes (one batch, in a group one log entry). */
  static final int PRUNE_BATCH = 10_000;

  /**
   * Deletes the stored events older than the newest {@code capacity}, at least 100 at a time: one batch, written by the
   * caller (the tracker's scheduler, after the heartbeat records), not by whoever adds events. Returns how many.
   */
  public int pruneStored() throws IOException {
    long from;
    long to;
    synchronized (this) {
      from = prunedTo + 1;
      to = Math.min(seq - capacity, prunedTo + PRUNE_BATCH);
    }
    if (store == null || to - from + 1 < 100) {
      return 0;
    }
    Batch old = new Batch();
    for (long s = from; s <= to; s++) {
      old.delete(TrackerStore.Family.EVENTS, key(s));
    }
    store.write(old); // supersedes those still waiting to be written
    synchronized (this) {
      prunedTo = Math.max(prunedTo, to);
    }
    return (int) (to - from + 1);
  }

  private static byte[] key(long seq) {
    return ByteBuffer.allocate(8).putLong(seq).array();
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
