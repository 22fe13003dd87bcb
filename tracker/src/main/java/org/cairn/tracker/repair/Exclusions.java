package org.cairn.tracker.repair;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.cairn.tracker.catalog.ChunkRecord;

/**
 * Peers the planner leaves out as targets for a chunk's rebuilt pieces: its holders (a chunk's pieces
 * go on distinct hosts), those that failed this repair lately, and those already the target of as many
 * bytes of rebuilt pieces in flight as a peer may take.
 */
record Exclusions(Set<String> holders, Set<String> avoided, Set<String> atLimit) {

  static Exclusions of(ChunkRecord r, Set<String> avoided, Map<String, Long> targetLoad, long peerBytes) {
    Set<String> holders = new HashSet<>();
    for (String holder : r.holders()) {
      if (holder != null) {
        holders.add(holder);
      }
    }
    Set<String> atLimit = new HashSet<>();
    for (Map.Entry<String, Long> e : targetLoad.entrySet()) {
      if (e.getValue() >= peerBytes) {
        atLimit.add(e.getKey());
      }
    }
    return new Exclusions(holders, avoided, atLimit);
  }

  Set<String> all() {
    Set<String> out = new HashSet<>(holders);
    out.addAll(avoided);
    out.addAll(atLimit);
    return out;
  }
}
