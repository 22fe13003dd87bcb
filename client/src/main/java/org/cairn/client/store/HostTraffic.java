package org.cairn.client.store;

import java.util.HashMap;
import java.util.Map;

/**
 * What a store's piece writer counted per host for the passive bandwidth measurement (FALCON §3.2.2):
 * bytes acknowledged, and the time during which at least one PUT to the host was outstanding.
 */
final class HostTraffic {
  /** Bytes acknowledged and busy nanoseconds of one host. */
  static final class Traffic {
    long bytes;
    long busyNanos;
  }

  private final Map<String, Traffic> byHost = new HashMap<>();

  /** Adds {@code bytes} acknowledged by {@code host} over {@code busyNanos} with a PUT outstanding. */
  synchronized void count(String host, long bytes, long busyNanos) {
    Traffic t = byHost.computeIfAbsent(host, h -> new Traffic());
    t.bytes += bytes;
    t.busyNanos += busyNanos;
  }

  /** A copy of the counts so far, per host. */
  synchronized Map<String, Traffic> snapshot() {
    Map<String, Traffic> out = new HashMap<>();
    byHost.forEach((h, t) -> {
      Traffic c = new Traffic();
      c.bytes = t.bytes;
      c.busyNanos = t.busyNanos;
      out.put(h, c);
    });
    return out;
  }
}
