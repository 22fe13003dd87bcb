package org.cairn.tracker.repair;

import java.io.IOException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.availability.HostState;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
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
 *
 * An executor's word is first-hand only for pieces it placed on itself. A piece it says it placed on
 * another peer enters the index only when that peer's own inventory lists it (confirm): until then it is
 * unconfirmed (RepairJobs), the chunk is not planned again, and if the target has not listed it within
 * confirmMillis the piece is forgotten, the target avoided for the chunk, and the chunk planned again. So
 * a peer cannot end a chunk's repair by claiming pieces nobody wrote.
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
  private final long confirmMillis;
  private final Totals totals;

  /**
   * @param avoidMillis how long a failed job's executor and unplaced targets are not given that job again
   * @param unreachableMillis how long a source listed DOWN that an executor could not reach is not named as a source
   * @param confirmMillis how long a piece placed on another peer than its executor waits for that peer to list it
   */
  RepairOutcomes(Catalog catalog, RepairJobs jobs, EventLog events, long avoidMillis, long unreachableMillis, long confirmMillis,
      Totals totals) {
    this.catalog = catalog;
    this.jobs = jobs;
    this.events = events;
    this.avoidMillis = avoidMillis;
    this.unreachableMillis = unreachableMillis;
    this.confirmMillis = confirmMillis;
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
      Set<String> awaiting = new HashSet<>();
      int placed = 0;
      int unconfirmed = 0;
      for (RepairJob.Piece t : o.placed() == null ? List.<RepairJob.Piece>of() : o.placed()) {
        if (!job.targets().contains(t)) {
          LOG.warn("peer {} reported piece {} of {} on {}, which repair {} did not ask for; ignored", peerId, t.index(),
              id.shortHex(), t.peer(), o.id());
          continue;
        }
        if (!t.peer().equals(peerId)) {
          jobs.unconfirmed(new RepairJobs.Unconfirmed(o.id(), job, t.index(), f.expected().get(t.index()), t.peer(), peerId,
              now + confirmMillis));
          placed++;
          unconfirmed++;
          placedPeers.add(t.peer());
          awaiting.add(t.peer());
        } else if (entered(job, id, t.index(), f.expected().get(t.index()), t.peer())) {
          placed++;
          placedPeers.add(t.peer());
        }
      }
      if (placed > unconfirmed) {
        Set<String> entered = new HashSet<>(placedPeers);
        entered.removeAll(awaiting);
        events.addFor(job.app(), "repaired", job.app() + "/" + id.shortHex(), "rebuilt " + (placed - unconfirmed) + " piece(s) on "
            + String.join(", ", entered) + " (executed by " + peerId + ")");
      }
      if (!awaiting.isEmpty()) {
        LOG.info("repair {} by {}: pieces on {} count once those peers list them", o.id(), peerId, awaiting);
      }
      if (o.error() != null || placed < job.targets().size()) {
        failed(o, f, id, peerId, placed, placedPeers, now);
      }
    }
  }

  /** Names {@code peer} as the holder of the rebuilt piece if the entry still expects it; counts it repaired. */
  private boolean entered(RepairJob job, ChunkId id, int index, String expected, String peer) throws IOException {
    if (!catalog.holders().reassign(job.app(), id, index, expected, peer)) {
      return false;
    }
    totals.repairedFragments++;
    totals.repairedBytes += job.fragmentBytes();
    return true;
  }

  /**
   * A peer's inventory lists {@code keys} (37-byte fragment keys): the rebuilt pieces it was reported to hold and
   * lists now enter the index. Returns how many did.
   */
  int confirm(String peer, List<byte[]> keys) throws IOException {
    List<RepairJobs.Unconfirmed> waiting = jobs.unconfirmedOn(peer);
    if (waiting.isEmpty()) {
      return 0;
    }
    Set<String> listed = new HashSet<>();
    for (byte[] k : keys) {
      listed.add(HexFormat.of().formatHex(k));
    }
    int n = 0;
    for (RepairJobs.Unconfirmed u : waiting) {
      RepairJob job = u.job();
      ChunkId id = ChunkId.parse(job.chunk());
      String key = HexFormat.of().formatHex(new FragmentKey(id, u.index(), FragmentKey.parseTag(job.tags().get(u.index()))).toBytes());
      if (!listed.contains(key)) {
        continue;
      }
      jobs.confirmed(u);
      if (entered(job, id, u.index(), u.expected(), peer)) {
        n++;
        events.addFor(job.app(), "repaired", job.app() + "/" + id.shortHex(), "rebuilt piece " + u.index() + " on " + peer + " (executed by "
            + u.executor() + ", listed by " + peer + ")");
      }
    }
    return n;
  }

  /** Forgets pieces their targets did not list in time, avoiding those targets for the chunk: it is planned again. */
  void expireUnconfirmed(long now) {
    for (RepairJobs.Unconfirmed u : jobs.expireUnconfirmed(now)) {
      totals.failedJobs++;
      jobs.avoid(u.key(), u.peer(), now + avoidMillis);
      LOG.warn("repair {}: {} did not list piece {} that {} reported placed on it within {} s; planning it again", u.key(),
          u.peer(), u.index(), u.executor(), confirmMillis / 1000);
      events.addFor(u.job().app(), "repair-failed", u.job().app() + "/" + ChunkId.parse(u.job().chunk()).shortHex(), "piece " + u.index()
          + " reported placed on " + u.peer() + " by " + u.executor() + " was never listed by " + u.peer());
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
