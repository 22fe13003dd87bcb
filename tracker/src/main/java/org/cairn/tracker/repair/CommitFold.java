package org.cairn.tracker.repair;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.erasure.CodingSummary;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.catalog.CommitJournal;
import org.cairn.tracker.catalog.VersionReads;
import org.cairn.tracker.membership.Membership;

/**
 * Folds commits into the last walk's counts (see {@link RepairService}): on a grid the walk found
 * healthy, a commit that only added a version and chunk records new to the index changes the counts
 * by its chunks and its app/node's latest version, so those are all a scan reads instead of the whole
 * index. Each new chunk must be healthy now (every piece on a peer that is not DOWN); otherwise, or
 * when a chunk or version has gone meanwhile, the fold gives up and the scan walks.
 */
final class CommitFold {
  private final Catalog catalog;
  private final Membership membership;
  private final Duration grace;

  CommitFold(Catalog catalog, Membership membership, Duration grace) {
    this.catalog = catalog;
    this.membership = membership;
    this.grace = grace;
  }

  /** {@code s} with {@code commits} counted, as of {@code now}; null when only a walk can tell. */
  RepairService.Snapshot fold(RepairService.Snapshot s, List<CommitJournal.Committed> commits, Map<String, PeerView> peers, long now)
      throws IOException {
    long chunks = s.chunks();
    long healthy = s.healthy();
    long needed = s.neededBytes();
    Map<String, DurabilityView.Latest> latest = new TreeMap<>(); // in the walk's order: by "app\0node"
    for (DurabilityView.Latest l : s.latest()) {
      latest.put(l.app() + "\u0000" + l.node(), l);
    }
    for (CommitJournal.Committed c : commits) {
      for (ChunkId id : c.created()) {
        ChunkRecord r = catalog.reads().chunk(c.app(), id);
        if (r == null || ChunkHealth.of(r, peers, membership, grace, now).live != r.holders().size()) {
          return null;
        }
        chunks++;
        healthy++;
        needed += r.storedBytes();
      }
      String key = c.app() + "\u0000" + c.node();
      DurabilityView.Latest before = latest.get(key);
      // a version's own later entry (its catalog record) leaves its listing as it was: read it once
      if (before == null || c.step() > before.step()) {
        DurabilityView.Latest committed = latestOf(c);
        if (committed == null) {
          return null;
        }
        latest.put(key, committed);
      }
    }
    return new RepairService.Snapshot(now, chunks, healthy, s.degraded(), s.lost(), s.queued(), List.copyOf(latest.values()), needed,
        s.unhealthy(), s.stalled(), s.backlogBytes());
  }

  /** The committed version as the walk lists a latest one (every chunk healthy, so none lost), or null if it is gone. */
  private DurabilityView.Latest latestOf(CommitJournal.Committed c) throws IOException {
    VersionReads.VersionChunks v = catalog.reads().versionChunks(c.app(), c.node(), c.step());
    if (v == null) {
      return null;
    }
    List<String> codings = new ArrayList<>(v.chunks().size());
    for (ChunkId id : v.chunks()) {
      ChunkRecord r = catalog.reads().chunk(c.app(), id);
      codings.add(r == null ? null : r.redundancy());
    }
    CodingSummary coding = CodingSummary.of(codings);
    return new DurabilityView.Latest(c.app(), c.node(), c.step(), v.chunks().size(), 0, true, coding.coding(), coding.weakest());
  }
}
