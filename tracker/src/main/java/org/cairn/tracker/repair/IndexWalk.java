package org.cairn.tracker.repair;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.erasure.CodingSummary;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.VersionReads;
import org.cairn.tracker.membership.Membership;

/**
 * One walk of the chunk index (a repair scan that could not be skipped): counts each chunk's pieces
 * on peers that are not DOWN, queues the chunks that need and may have repair in claim order (see
 * {@link RepairService}), and says per latest version whether it is restorable and why repair stalls.
 */
final class IndexWalk {
  /** What one walk found; {@code unhealthy}: app/chunk -> "degraded" or "lost". */
  record Result(long chunks, long healthy, long degraded, long lost, long neededBytes, long backlogBytes,
      Map<String, String> unhealthy, List<Pending> queue, List<DurabilityView.Latest> latest, List<DurabilityView.Stalled> stalled) {}

  private final Catalog catalog;
  private final Membership membership;
  private final Duration grace;
  /** Bytes of rebuilt pieces in flight to one target past which it takes no more. */
  private final long peerBytes;

  IndexWalk(Catalog catalog, Membership membership, Duration grace, long peerBytes) {
    this.catalog = catalog;
    this.membership = membership;
    this.grace = grace;
    this.peerBytes = peerBytes;
  }

  Result walk(Map<String, PeerView> peers, RepairJobs jobs, long now) throws IOException {
    Set<String> latestKeys = new HashSet<>();
    List<VersionReads.VersionChunks> latest = catalog.reads().latestVersions();
    for (VersionReads.VersionChunks v : latest) {
      for (ChunkId id : v.chunks()) {
        latestKeys.add(key(v.app(), id));
      }
    }
    Map<String, String> unhealthy = new HashMap<>();
    long[] counts = new long[6]; // chunks, healthy, degraded, lost, bytes of all pieces, bytes of pieces to rebuild
    List<Pending> pending = new ArrayList<>();
    StallReasons stalls = new StallReasons(peers, now);
    Map<String, Long> targetLoad = jobs.targetLoad();
    Map<String, String> latestCoding = new HashMap<>(); // app/chunk -> its own coding, for latest versions
    catalog.holders().forEachChunk((app, id, r) -> {
      String k = key(app, id);
      if (latestKeys.contains(k)) {
        latestCoding.put(k, r.redundancy());
      }
      ChunkHealth h = ChunkHealth.of(r, peers, membership, grace, now, holder -> jobs.askable(holder, now));
      h.graced.forEach(stalls::grace);
      counts[0]++;
      counts[4] += r.storedBytes();
      if (h.live == r.holders().size()) {
        counts[1]++;
      } else if (h.live >= r.needed()) {
        counts[2]++;
        unhealthy.put(k, "degraded");
      } else {
        counts[3]++;
        unhealthy.put(k, "lost");
        stalls.lost(r, h.repairable(r.needed()));
      }
      if (!h.missing.isEmpty() && h.live >= r.needed()) {
        counts[5] += h.missing.size() * r.fragmentBytes();
      }
      if (h.repairable(r.needed()) && !jobs.running(k)) {
        boolean blocked = r.tags() == null
            || stalls.noTarget(r, Exclusions.of(r, jobs.avoided(k, now), targetLoad, peerBytes));
        if (r.tags() == null) {
          stalls.untagged();
        }
        pending.add(new Pending(app, id, h.live - r.needed(), latestKeys.contains(k), blocked));
      }
    });
    // claim() tries only a few jobs per call, so chunks nobody can take now must not hide the others, nor chunks whose
    // read needs holders listed DOWN (their jobs fail where those are really gone) the ones live holders can restore
    pending.sort(Comparator.comparing(Pending::blocked).thenComparing(Pending::longShot).thenComparingInt(Pending::surplus)
        .thenComparing(p -> !p.latest()));
    stalls.executors(pending.size());
    List<DurabilityView.Latest> restorable = new ArrayList<>();
    for (VersionReads.VersionChunks v : latest) {
      int lost = 0;
      List<String> codings = new ArrayList<>(v.chunks().size());
      for (ChunkId id : v.chunks()) {
        if ("lost".equals(unhealthy.get(key(v.app(), id)))) {
          lost++;
        }
        codings.add(latestCoding.get(key(v.app(), id)));
      }
      CodingSummary coding = CodingSummary.of(codings);
      restorable.add(new DurabilityView.Latest(v.app(), v.node(), v.step(), v.chunks().size(), lost, lost == 0, coding.coding(),
          coding.weakest()));
    }
    return new Result(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], unhealthy, pending, restorable,
        stalls.list());
  }

  /** A chunk's key in the queue, the jobs and the unhealthy map. */
  static String key(String app, ChunkId id) {
    return app + "/" + id.hex();
  }
}
