package org.cairn.core.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A way of choosing hosts: {@code falcon} (default; FALCON with the per-donor cap, {@link CappedPlacement}),
 * {@code random}, {@code dedicated:HOST}.
 */
public interface PlacementPolicy {

  /**
   * Chooses {@code request.n()} distinct hosts among the eligible candidates.
   *
   * @throws NotEnoughHostsException if fewer than n candidates are eligible
   */
  Placement place(List<Candidate> candidates, PlacementRequest request) throws NotEnoughHostsException;

  String name();

  /** Parses {@code falcon} (capped at {@link LoadCap#DEFAULT_FACTOR} times the mean), {@code random[:SEED]} or {@code dedicated:HOST}. */
  static PlacementPolicy parse(String spec) {
    String s = spec == null ? "" : spec.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.equals("falcon")) {
      return new CappedPlacement(new FalconPlacement(), LoadCap.defaults());
    }
    if (lower.equals("random")) {
      return new RandomPlacement(System.nanoTime());
    }
    if (lower.startsWith("random:")) {
      try {
        return new RandomPlacement(Long.parseLong(s.substring(7)));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("random placement seed must be a number, was '" + s.substring(7) + "'", e);
      }
    }
    if (lower.startsWith("dedicated:") && s.length() > 10) {
      return new DedicatedPlacement(s.substring(10));
    }
    throw new IllegalArgumentException("placement must be falcon, random[:SEED] or dedicated:HOST, was '" + spec + "'");
  }

  /**
   * Candidates that may receive a fragment: RUNNING or LOADED with room for one fragment
   * (FALCON §3.2.4; FULL and BUSY refuse new writes, DOWN is gone).
   */
  static List<Candidate> eligible(List<Candidate> candidates, PlacementRequest request) {
    List<Candidate> out = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Candidate c : candidates) {
      if (c.state().acceptsWrites() && c.freeBytes() >= request.fragmentBytes() && seen.add(c.id())) {
        out.add(c);
      }
    }
    return out;
  }
}
