package org.cairn.tracker.repair;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.member.PeerView;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.membership.Membership;

/**
 * Corrects a walk's result for the chunks claimed, reported or confirmed while it ran ({@link WalkChanges}): each is
 * read again from the index as it is now. One the walk counted degraded or lost is counted by what it is now (healthy
 * once a report put its pieces back, gone once collected), and it stays queued only if it is still repairable and
 * no job of it is in flight or awaits confirmation. So a repair reported during a walk is not undone by the walk's
 * publish, and a chunk claimed during it is not queued twice. The walk's backlog bytes and stalled chunks are left as
 * read (the next walk, which the index writes of those reports cause, recounts them).
 */
final class WalkReconcile {
  private final Catalog catalog;
  private final Membership membership;
  private final Duration grace;

  WalkReconcile(Catalog catalog, Membership membership, Duration grace) {
    this.catalog = catalog;
    this.membership = membership;
    this.grace = grace;
  }

  /**
   * {@code w} corrected for {@code touched}, with {@code jobs} (the service's, or a copy of them) saying which are
   * running. Changes {@code w}'s unhealthy map and queue in place: they are the walk's own, not yet published.
   */
  IndexWalk.Result apply(IndexWalk.Result w, Set<WalkChanges.Touched> touched, RepairJobs jobs, Map<String, PeerView> peers,
      long now) throws IOException {
    if (touched.isEmpty()) {
      return w;
    }
    long[] counts = {w.chunks(), w.healthy(), w.degraded(), w.lost()};
    Set<WalkChanges.Touched> drop = new HashSet<>();
    for (WalkChanges.Touched t : touched) {
      String k = IndexWalk.key(t.app(), t.id());
      ChunkRecord r = catalog.reads().chunk(t.app(), t.id());
      ChunkHealth h = r == null ? null : ChunkHealth.of(r, peers, membership, grace, now, holder -> jobs.askable(holder, now));
      String was = w.unhealthy().get(k);
      if (was != null) {
        counts["lost".equals(was) ? 3 : 2]--;
        String is = r == null ? null : h.live == r.holders().size() ? "healthy" : h.live >= r.needed() ? "degraded" : "lost";
        if (is == null) {
          counts[0]--;
          w.unhealthy().remove(k);
        } else if (is.equals("healthy")) {
          counts[1]++;
          w.unhealthy().remove(k);
        } else {
          counts[is.equals("lost") ? 3 : 2]++;
          w.unhealthy().put(k, is);
        }
      }
      if (r == null || !h.repairable(r.needed()) || jobs.running(k)) {
        drop.add(t);
      }
    }
    if (!drop.isEmpty()) {
      w.queue().removeIf(p -> drop.contains(new WalkChanges.Touched(p.app(), p.id())));
    }
    return new IndexWalk.Result(counts[0], counts[1], counts[2], counts[3], w.neededBytes(), w.backlogBytes(), w.unhealthy(),
        w.queue(), w.latest(), w.stalled());
  }
}
