package org.cairn.tracker.repair;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.availability.HostState;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;

/**
 * A claimed chunk's repair job, planned from the index as it is now: its missing pieces (holders
 * nobody has, unknown, or DOWN past the grace), FALCON's targets for them among RUNNING peers that
 * hold nothing of the chunk (avoiding recent failures and peers at their in-flight limit), and its
 * live holders as sources, RUNNING first, loaded and busy ones later, then the holders listed DOWN that
 * did not leave and no executor found unreachable lately (the rule ChunkHealth counts them by): the
 * executor's reader (the one fetch and verify use) asks those only when the live ones cannot give m
 * pieces, so a chunk fewer than m live holders hold is rebuilt while holders the tracker no longer
 * hears from still answer their peers.
 */
final class RepairPlanner {
  private final Catalog catalog;
  private final Membership membership;
  private final PlacementService placement;
  private final RepairJobs jobs;
  private final RepairService.Config config;

  RepairPlanner(Catalog catalog, Membership membership, PlacementService placement, RepairJobs jobs, RepairService.Config config) {
    this.catalog = catalog;
    this.membership = membership;
    this.placement = placement;
    this.jobs = jobs;
    this.config = config;
  }

  /** A job and, per target index, the holder the index names now (the compare-and-set's expected value). */
  record Planned(RepairJob job, Map<Integer, String> expected) {}

  /** The job for a queued chunk, or null if there is nothing to do any more or no target now (left for the next scan). */
  Planned plan(Pending p, Map<String, PeerView> peers, long now) throws IOException {
    ChunkRecord r = catalog.reads().chunk(p.app(), p.id());
    if (r == null || r.tags() == null) {
      return null; // gone, or indexed before fragments had tags (its pieces cannot be named on the peers)
    }
    ChunkHealth h = ChunkHealth.of(r, peers, membership, config.grace(), now, holder -> jobs.askable(holder, now));
    if (!h.repairable(r.needed())) {
      return null;
    }
    String k = IndexWalk.key(p.app(), p.id());
    Set<String> exclude = Exclusions.of(r, jobs.avoided(k, now), jobs.targetLoad(), config.peerBytes()).all();
    List<String> chosen = placement.repairTargets(r.client(), exclude, h.missing.size(), r.fragmentBytes());
    if (chosen.isEmpty()) {
      return null;
    }
    List<RepairJob.Piece> targets = new ArrayList<>();
    Map<Integer, String> expected = new HashMap<>();
    for (int j = 0; j < chosen.size(); j++) {
      int index = h.missing.get(j);
      targets.add(new RepairJob.Piece(index, chosen.get(j), peers.get(chosen.get(j)).address()));
      expected.put(index, r.holders().get(index));
    }
    List<RepairJob.Piece> sources = new ArrayList<>();
    for (int i = 0; i < r.holders().size(); i++) {
      String holder = r.holders().get(i);
      PeerView v = holder == null ? null : peers.get(holder);
      boolean down = v != null && HostState.DOWN.name().equals(v.state());
      if (v != null && (!down || (!membership.leftGracefully(holder) && jobs.askable(holder, now)))) {
        sources.add(new RepairJob.Piece(i, holder, v.address(), v.state()));
      }
    }
    // read from RUNNING holders first, loaded and busy ones later, those listed DOWN last
    sources.sort(Comparator.comparingInt(s -> preference(peers.get(s.peer()).state())));
    return new Planned(new RepairJob(k, p.app(), p.id().hex(), r.redundancy(), r.fragmentBytes(), sources, targets, r.tags()), expected);
  }

  private static int preference(String state) {
    return switch (state) {
      case "RUNNING" -> 0;
      case "FULL" -> 1;
      case "LOADED" -> 2;
      case "DOWN" -> 4;
      default -> 3;
    };
  }
}
