package org.cairn.sim.durability;

import java.util.PriorityQueue;

/**
 * Discrete-event simulated time: actions run in the order of their time, those due at the same time in the order they
 * were scheduled, so a run is a function of its inputs. Time is simulated milliseconds; nothing here reads a clock.
 */
public final class EventLoop {
  private record Event(long at, long seq, Runnable action) {}

  private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
      : Long.compare(a.seq, b.seq));
  private long now;
  private long seq;
  private long ran;

  /** The time of the event running, or of the last one run. */
  public long now() {
    return now;
  }

  /** Events run so far. */
  public long ran() {
    return ran;
  }

  /** Runs {@code action} at {@code at}; an event may not be scheduled before the one running. */
  public void schedule(long at, Runnable action) {
    if (at < now) {
      throw new IllegalArgumentException("cannot schedule at " + at + ", before now (" + now + ")");
    }
    queue.add(new Event(at, seq++, action));
  }

  /** Runs every event due before {@code end}, including those they schedule; time then stands at {@code end}. */
  public void runUntil(long end) {
    while (!queue.isEmpty() && queue.peek().at < end) {
      Event e = queue.poll();
      now = e.at;
      ran++;
      e.action.run();
    }
    now = Math.max(now, end);
  }

  public int pending() {
    return queue.size();
  }
}
