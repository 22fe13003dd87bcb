package org.cairn.tracker.repair;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.cairn.core.api.RepairJob;
import org.cairn.core.api.RepairOutcome;
import org.cairn.core.availability.HostState;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * What executors report: each placed piece enters the chunk index if the entry still expects the piece
 * the job rebuilt (a holder that came back meanwhile keeps its place), and a job that placed less than it
 * was asked marks its executor (if it placed nothing) and its unplaced targets as avoided for that chunk
 * for ten scan intervals. Reports of jobs the peer does not own (timed out and planned again) and of
 * pieces the job did not ask for are ignored: what they wrote is garbage the peers' GC removes. Called
 * under the repair service's lock.
 */
final class RepairOutcomes {
  private static final Logger LOG = LoggerFactory.getLogger(RepairOutcomes.class);

  /** What repair has done since the tracker started (the durability API's totals). */
  static final class Totals {
    long repairedBytes;
    long repairedFragments;
    long failedJobs;
  }

  private final Catalog catalog;
  private final RepairJobs jobs;
  private final EventLog events;
  private final long avoidMillis;
  private final long unreachableMillis;
  private final Totals totals;

  /**
   * @param avoidMillis how long a failed job's executor and unplaced targets are not given that job again
   * @param unreachableMillis how long a source listed DOWN that an executor could not reach is not named as a source
   */
  RepairOutcomes(Catalog catalog, RepairJobs jobs, EventLog events, long avoidMillis, long unreachableMillis, Totals totals) {
    this.catalog = catalog;
    this.jobs = jobs;
    this.events = events;
    this.avoidMillis = avoidMillis;
    this.unreachableMillis = unreachableMillis;
    this.totals = totals;
  }

  void apply(String peerId, List<RepairOutcome> outcomes, long now) throws IOException {
    for (RepairOutcome o : outcomes) {
      RepairJobs.InFlight f = jobs.get(o.id());
      if (f == null || !f.executor().equals(peerId)) {
        LOG.info("ignoring a report from {} for repair {} it does not own (timed out?); what it wrote is garbage", peerId, o.id());
        continue;
      }
      jobs.finish(o.id());
      RepairJob job = f.job();
      ChunkId id = ChunkId.parse(job.chunk());
      Set<String> placedPeers = new HashSet<>();
      int placed = 0;
      for (RepairJob.Piece t : o.placed() == null ? List.<RepairJob.Piece>of() : o.placed()) {
        if (!job.targets().contains(t)) {
          LOG.warn("peer {} reported piece {} of {} on {}, which repair {} did not ask for; ignored", peerId, t.index(),
              id.shortHex(), t.peer(), o.id());
          continue;
        }
        if (catalog.holders().reassign(job.app(), id, t.index(), f.expected().get(t.index()), t.peer())) {
          placed++;
          placedPeers.add(t.peer());
          totals.repairedFragments++;
          totals.repairedBytes += job.fragmentBytes();
        }
      }
      if (placed > 0) {
        events.addFor(job.app(), "repaired", job.app() + "/" + id.shortHex(), "rebuilt " + placed + " piece(s) on "
            + String.join(", ", placedPeers) + " (executed by " + peerId + ")");
      }
      if (o.error() != null || placed < job.targets().size()) {
        failed(o, f, id, peerId, placed, placedPeers, now);
      }
    }
  }

  private void failed(RepairOutcome o, RepairJobs.InFlight f, ChunkId id, String peerId, int placed, Set<String> placedPeers, long now) {
    RepairJob job = f.job();
    totals.failedJobs++;
    long until = now + avoidMillis;
    if (placed == 0) {
      jobs.avoid(o.id(), peerId, until);
    }
    for (RepairJob.Piece t : job.targets()) {
      if (!placedPeers.contains(t.peer())) {
        jobs.avoid(o.id(), t.peer(), until);
      }
    }
    // only the job's own sources listed DOWN: an executor cannot have other peers left out as sources
    for (RepairJob.Piece s : job.sources()) {
      if (HostState.DOWN.name().equals(s.state()) && o.unreachable().contains(s.peer())) {
        jobs.unreachable(s.peer(), now + unreachableMillis);
        LOG.info("repair {}: {} (listed DOWN) could not be reached by {}; not asked for {} s", o.id(), s.peer(), peerId,
            unreachableMillis / 1000);
      }
    }
    LOG.info("repair {} by {}: {} of {} pieces placed{}", o.id(), peerId, placed, job.targets().size(),
        o.error() == null ? "" : ": " + o.error());
    events.addFor(job.app(), "repair-failed", job.app() + "/" + id.shortHex(), "by " + peerId + ": " + (o.error() == null
        ? placed + " of " + job.targets().size() + " pieces placed" : o.error()));
  }
}
