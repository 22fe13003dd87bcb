package org.cairn.tracker.placement;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/*
 * What the tracker's own placements put on each peer, for the per-donor cap (core's LoadCap): a peer's load is the
 * larger of this and what its heartbeats report, so a peer that reports holding nothing cannot attract every piece
 * (docs/simulation.md, "A cap per donor"). Counted without a catalog walk: each placement adds its fragment to the
 * hosts it names (a store that falls back on an alternate is not counted there; the alternate's own heartbeat is).
 *
 * The count fades with a half-life of a day, as deletions are not seen here: it stands for what was placed over the
 * last day or two, which is at least what a peer holds of checkpoints kept for hours (the client's default interval is
 * 10 minutes and its keep policies keep the latest few). Held longer, a peer's heartbeat carries the rest. In memory:
 * a tracker that restarts counts from zero, and a new leader of a group counts what it placed.
 */
final class PlacedBytes {
  static final Duration HALF_LIFE = Duration.ofDays(1);

  /** peer -> {bytes as of the time, the time (ms)}. */
  private final Map<String, double[]> byPeer = new ConcurrentHashMap<>();

  void add(String peer, long bytes, long now) {
    byPeer.compute(peer, (p, old) -> new double[] {(old == null ? 0 : faded(old, now)) + bytes, now});
  }

  /** The bytes placed on {@code peer}, faded to {@code now}; 0 for a peer never placed on. */
  long at(String peer, long now) {
    double[] v = byPeer.get(peer);
    return v == null ? 0 : (long) faded(v, now);
  }

  private static double faded(double[] v, long now) {
    double age = Math.max(0, now - v[1]);
    return v[0] * Math.exp(-Math.log(2) * age / HALF_LIFE.toMillis());
  }
}
