package org.cairn.tracker.membership;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each peer's data-plane traffic as its heartbeats report it (bytes of pieces taken in and sent out
 * since the peer started) and the rates between its last two heartbeats: the status page's traffic per
 * donor. In memory: a restarted tracker learns it again within two heartbeats.
 */
final class PeerTraffic {
  /**
   * Totals since the peer started, the rates over its last heartbeat interval (bytes per second), and the bytes its
   * repairs read and sent since it started ({@code repair}) and over the last 24 hours ({@code repairLastDay}); both
   * null from a peer that does not report repair traffic.
   */
  record Sample(long at, long in, long out, double inPerSecond, double outPerSecond, Long repair, Long repairLastDay) {}

  private final Map<String, Sample> last = new ConcurrentHashMap<>();
  private final Map<String, RepairDay> repairDays = new ConcurrentHashMap<>();

  /** A heartbeat's totals at {@code now}; totals that went down mean the peer restarted (its counters began again). */
  void report(String peer, long now, Long in, Long out) {
    report(peer, now, in, out, null);
  }

  /** As {@link #report(String, long, Long, Long)}, with the bytes the peer's repairs read and sent since it started. */
  void report(String peer, long now, Long in, Long out, Long repair) {
    if (in == null || out == null) {
      last.remove(peer);
      repairDays.remove(peer);
      return;
    }
    last.compute(peer, (id, before) -> {
      Long day = repair == null ? null : repairDay(peer, now, before == null ? null : before.repair(), repair);
      if (before == null || now <= before.at() || in < before.in() || out < before.out()) {
        return new Sample(now, in, out, 0, 0, repair, day);
      }
      double dt = (now - before.at()) / 1000.0;
      return new Sample(now, in, out, (in - before.in()) / dt, (out - before.out()) / dt, repair, day);
    });
  }

  /** Adds what the peer repaired since its last report to its day; returns its repair bytes over the last 24 hours. */
  private long repairDay(String peer, long now, Long before, long total) {
    RepairDay day = repairDays.computeIfAbsent(peer, p -> new RepairDay());
    // the first report this tracker hears counts nothing (the total may span days); a total that went down: a restart
    long added = before == null ? 0 : total >= before ? total - before : total;
    day.add(now, added);
    return day.lastDay(now);
  }

  /** Repair bytes per hour over the last 24 hours, in a ring of hourly buckets. */
  static final class RepairDay {
    private static final long HOUR = 3_600_000L;
    private final long[] bytes = new long[24];
    private final long[] hourOf = new long[24];

    synchronized void add(long now, long added) {
      long hour = now / HOUR;
      int i = (int) (hour % 24);
      if (hourOf[i] != hour) {
        hourOf[i] = hour;
        bytes[i] = 0;
      }
      bytes[i] += Math.max(0, added);
    }

    synchronized long lastDay(long now) {
      long hour = now / HOUR;
      long sum = 0;
      for (int i = 0; i < 24; i++) {
        if (hour - hourOf[i] < 24) {
          sum += bytes[i];
        }
      }
      return sum;
    }
  }

  /** The peer's last sample, or null if its heartbeats carry no traffic. */
  Sample of(String peer) {
    return last.get(peer);
  }
}
