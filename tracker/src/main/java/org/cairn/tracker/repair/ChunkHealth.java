package org.cairn.tracker.repair;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.availability.HostState;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.membership.Membership;

/**
 * One chunk's pieces against current membership: how many are on peers that are not DOWN, which
 * need repair (no holder, an unknown one, or one DOWN past the grace period), the DOWN holders
 * still within it, and how many DOWN holders stopped heartbeating without leaving (repair asks them
 * last, as fetch and verify do: the tracker may not hear a holder its peers still reach).
 */
final class ChunkHealth {
  int live;
  /** Holders listed DOWN that did not leave the grid (and were not found unreachable lately): sources of the last resort. */
  int silent;
  final List<Integer> missing = new ArrayList<>();
  /** DOWN holders still in their grace period -> when their pieces become due. */
  Map<String, Long> graced = Map.of();

  static ChunkHealth of(ChunkRecord r, Map<String, PeerView> peers, Membership membership, Duration grace, long now) {
    return of(r, peers, membership, grace, now, holder -> true);
  }

  /** {@code askable}: whether a holder listed DOWN may be counted as a source (not found unreachable lately). */
  static ChunkHealth of(ChunkRecord r, Map<String, PeerView> peers, Membership membership, Duration grace, long now,
      Predicate<String> askable) {
    ChunkHealth h = new ChunkHealth();
    for (int i = 0; i < r.holders().size(); i++) {
      String holder = r.holders().get(i);
      PeerView v = holder == null ? null : peers.get(holder);
      if (v != null && !HostState.DOWN.name().equals(v.state())) {
        h.live++;
        continue;
      }
      if (v != null && !membership.leftGracefully(holder) && askable.test(holder)) {
        h.silent++;
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

  /** Whether a repair can be tried: something to rebuild, and at least m holders to ask (live ones, then silent ones). */
  boolean repairable(int needed) {
    return !missing.isEmpty() && live + silent >= needed;
  }
}
