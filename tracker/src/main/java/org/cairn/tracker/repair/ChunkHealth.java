package org.cairn.tracker.repair;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.PeerView;
import org.cairn.core.availability.HostState;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.membership.Membership;

/**
 * One chunk's pieces against current membership: how many are on peers that are not DOWN, which
 * need repair (no holder, an unknown one, or one DOWN past the grace period), and the DOWN holders
 * still within it.
 */
final class ChunkHealth {
  int live;
  final List<Integer> missing = new ArrayList<>();
  /** DOWN holders still in their grace period -> when their pieces become due. */
  Map<String, Long> graced = Map.of();

  static ChunkHealth of(ChunkRecord r, Map<String, PeerView> peers, Membership membership, Duration grace, long now) {
    ChunkHealth h = new ChunkHealth();
    for (int i = 0; i < r.holders().size(); i++) {
      String holder = r.holders().get(i);
      PeerView v = holder == null ? null : peers.get(holder);
      if (v != null && !HostState.DOWN.name().equals(v.state())) {
        h.live++;
        continue;
      }
      long due = v == null ? Long.MIN_VALUE : membership.repairDueAt(holder, grace);
      if (due <= now) {
        h.missing.add(i);
      } else {
        if (h.graced.isEmpty()) {
          h.graced = new HashMap<>(2);
        }
        h.graced.put(holder, due);
      }
    }
    return h;
  }
}
