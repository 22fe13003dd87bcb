package org.cairn.sim.durability;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.PlacementRequest;

/*
 * The tracker's repair policy, re-implemented over the simulation's bookkeeping (tracker/repair's RepairPlanner and
 * IndexWalk read the tracker's catalog and membership, which need the whole tracker):
 *
 * - a piece is due for repair when its holder has been DOWN past the grace period (a wiped holder is DOWN to the
 *   tracker from the wipe on) - ChunkHealth's rule;
 * - a version with something due and at least m live pieces is queued, fewest live pieces beyond m first, then each
 *   job's latest version (IndexWalk's order); one with fewer than m live pieces waits (its missing holders cannot
 *   answer while they are down);
 * - each scan starts a job for every queued version it can: an executor drawn among RUNNING donors not running a job
 *   (the peers that claim), targets ranked by the run's placement among RUNNING donors with room that hold nothing of
 *   the version and receive nothing else now (PlacementService.repairTargets' request: m = the pieces, k = 0), and
 *   sources the first m live holders, RUNNING before BUSY (RepairPlanner's preference).
 *
 * Time: each source sends its piece over its uplink (queued behind what that uplink already sends); the executor
 * rebuilds no faster than the measured per-worker rate; it then sends the rebuilt pieces over its own uplink. A job
 * fails if a source or the executor is not live when it ends; a target not up then does not get its piece.
 */
final class Repairs {
  private final Grid grid;
  private final Policies policies;
  private final SplittableRandom executors;

  Repairs(Grid grid, Policies policies, SplittableRandom executors) {
    this.grid = grid;
    this.policies = policies;
    this.executors = executors;
  }

  void start() {
    grid.loop.schedule(grid.settings.monthStart(), this::scan);
  }

  /** Plans the queue from the versions touched since and starts what it can. */
  void scan() {
    List<RepairQueue.Pending> queue = queue(grid.loop.now());
    RepairQueue.sort(queue);
    for (RepairQueue.Pending p : queue) {
      if (!startJob(grid.versions.get(p.version()), p.missing())) {
        break; // no executor free: the rest wait for the next scan
      }
    }
    long next = grid.loop.now() + grid.settings.scanSeconds() * 1000L;
    if (next < grid.settings.horizon()) {
      grid.loop.schedule(next, this::scan);
    }
  }

  List<RepairQueue.Pending> queue(long now) {
    long grace = grid.settings.graceMinutes() * DurabilitySettings.MINUTE;
    List<RepairQueue.Pending> queue = new ArrayList<>();
    Donors donors = grid.donors;
    for (Iterator<Integer> it = grid.touched.iterator(); it.hasNext();) {
      Version v = grid.versions.get(it.next());
      if (v.deleted) {
        it.remove();
        continue;
      }
      if (v.repairing) {
        continue;
      }
      int[] missing = new int[v.n()];
      int due = 0;
      for (int i = 0; i < v.n(); i++) {
        long since = !v.present(i, donors) ? donors.wipedAt(v.holder[i]) : donors.up(v.holder[i]) ? Long.MAX_VALUE
            : donors.downSince(v.holder[i]);
        if (since != Long.MAX_VALUE && since + grace <= now) {
          missing[due++] = i;
        }
      }
      if (due == 0 && v.live == v.n()) {
        it.remove();
      } else if (due > 0 && v.live >= v.m) {
        queue.add(new RepairQueue.Pending(v.id, v.live - v.m, v.latest, java.util.Arrays.copyOf(missing, due)));
      }
    }
    return queue;
  }

  /** Starts one version's job; false when no executor is free. */
  private boolean startJob(Version v, int[] missing) {
    int executor = executor();
    if (executor < 0) {
      return false;
    }
    int[] targets = targets(v, missing.length);
    if (targets.length == 0) {
      return true; // no target now: the next scan tries again
    }
    int[] sources = sources(v);
    long now = grid.loop.now();
    double uplink = grid.settings.uplink();
    long readEnd = now + (long) (1000.0 * v.m * v.pieceBytes / grid.settings.rebuildRate());
    for (int s : sources) {
      readEnd = Math.max(readEnd, send(s, v.pieceBytes, uplink, now));
      grid.tally.repairTraffic(s, v.pieceBytes, now);
    }
    long end = send(executor, (long) targets.length * v.pieceBytes, uplink, readEnd);
    grid.tally.repairTraffic(executor, (long) (v.m + targets.length) * v.pieceBytes, now);
    int[] generations = new int[targets.length];
    for (int j = 0; j < targets.length; j++) {
      grid.tally.repairTraffic(targets[j], v.pieceBytes, now);
      grid.receiving[targets[j]] = true;
      generations[j] = grid.donors.generation(targets[j]);
    }
    grid.executing[executor] = true;
    v.repairing = true;
    int[] indexes = java.util.Arrays.copyOf(missing, targets.length);
    grid.loop.schedule(end, () -> finish(v, executor, sources, indexes, targets, generations));
    return true;
  }

  /** Queues {@code bytes} on donor {@code d}'s uplink from {@code from}; returns when they are sent. */
  private long send(int d, long bytes, double rate, long from) {
    long begin = Math.max(from, grid.uplinkFree[d]);
    grid.uplinkFree[d] = begin + (long) Math.ceil(1000.0 * bytes / rate);
    return grid.uplinkFree[d];
  }

  private void finish(Version v, int executor, int[] sources, int[] indexes, int[] targets, int[] generations) {
    long now = grid.loop.now();
    grid.executing[executor] = false;
    for (int t : targets) {
      grid.receiving[t] = false;
    }
    v.repairing = false;
    if (v.deleted) {
      return;
    }
    boolean read = grid.donors.up(executor);
    for (int s : sources) {
      read &= v.holds(s, grid.donors) && grid.donors.up(s);
    }
    if (!read) {
      grid.tally.repairsFailed++;
      grid.touched.add(v.id);
      return;
    }
    for (int j = 0; j < targets.length; j++) {
      if (grid.donors.up(targets[j]) && grid.donors.generation(targets[j]) == generations[j]) {
        grid.addPiece(v, indexes[j], targets[j]);
        grid.tally.piecesRebuilt++;
      }
    }
    grid.tally.repairsDone++;
    grid.recount(v, now);
  }

  private int executor() {
    int n = grid.donors.count();
    for (int tries = 0; tries < 64; tries++) {
      int d = executors.nextInt(n);
      if (grid.donors.running(d) && !grid.executing[d]) {
        return d;
      }
    }
    int from = executors.nextInt(n);
    for (int i = 0; i < n; i++) {
      int d = (from + i) % n;
      if (grid.donors.running(d) && !grid.executing[d]) {
        return d;
      }
    }
    return -1;
  }

  private int[] targets(Version v, int count) {
    List<Candidate> candidates = grid.candidates(v.computeHost, v.pieceBytes, count, d -> grid.receiving[d] || named(v, d), policies);
    int n = Math.min(count, candidates.size());
    if (n == 0) {
      return new int[0];
    }
    PlacementRequest request = new PlacementRequest(v.pieceBytes * n, n, 0, 3600, 600, 0, 12.5e6, 0);
    try {
      List<String> hosts = policies.place(candidates, request, grid.load()).hosts();
      return hosts.stream().mapToInt(grid::donorOf).toArray();
    } catch (NotEnoughHostsException e) {
      throw new IllegalStateException("placement refused " + n + " of " + candidates.size() + " eligible hosts", e);
    }
  }

  private static boolean named(Version v, int d) {
    for (int h : v.holder) {
      if (h == d) {
        return true;
      }
    }
    return false;
  }

  /** The first m live holders, RUNNING before BUSY. */
  private int[] sources(Version v) {
    List<Integer> running = new ArrayList<>();
    List<Integer> busy = new ArrayList<>();
    for (int i = 0; i < v.n(); i++) {
      if (v.live(i, grid.donors)) {
        (grid.donors.running(v.holder[i]) ? running : busy).add(v.holder[i]);
      }
    }
    running.addAll(busy);
    return running.subList(0, v.m).stream().mapToInt(Integer::intValue).toArray();
  }
}
