package org.cairn.tracker.membership;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each peer's data-plane traffic as its heartbeats report it (bytes of pieces taken in and sent out
 * since the peer started) and the rates between its last two heartbeats: the status page's traffic per
 * donor. In memory: a restarted tracker learns it again within two heartbeats.
 */
final class PeerTraffic {
  /** Totals since the peer started, and the rates over its last heartbeat interval (bytes per second). */
  record Sample(long at, long in, long out, double inPerSecond, double outPerSecond) {}

  private final Map<String, Sample> last = new ConcurrentHashMap<>();

  /** A heartbeat's totals at {@code now}; totals that went down mean the peer restarted (its counters began again). */
  void report(String peer, long now, Long in, Long out) {
    if (in == null || out == null) {
      last.remove(peer);
      return;
    }
    last.compute(peer, (id, before) -> {
      if (before == null || now <= before.at() || in < before.in() || out < before.out()) {
        return new Sample(now, in, out, 0, 0);
      }
      double dt = (now - before.at()) / 1000.0;
      return new Sample(now, in, out, (in - before.in()) / dt, (out - before.out()) / dt);
    });
  }

  /** The peer's last sample, or null if its heartbeats carry no traffic. */
  Sample of(String peer) {
    return last.get(peer);
  }
}
