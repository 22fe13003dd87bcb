package org.cairn.sim.durability;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementRequest;

/**
 * The version stream: each job stores a version every interval from its compute host, placed by core's placement
 * policy over the donors RUNNING with room (FALCON's eligibility), with the job's compute host's CRLS and MTTF; a job
 * keeps its last {@code keep} versions and deletes the oldest as a new one commits. The transfer itself is not
 * simulated: a version is whole the moment it is placed.
 */
final class Stores {
  private final Grid grid;
  private final Redundancy redundancy;
  private final Policies policies;
  private final int[] computeHost;
  private final List<Deque<Version>> kept;

  Stores(Grid grid, Redundancy redundancy, Policies policies, SplittableRandom jobs) {
    this.grid = grid;
    this.redundancy = redundancy;
    this.policies = policies;
    int count = grid.settings.jobs();
    computeHost = new int[count];
    int[] order = shuffled(grid.donors.count(), jobs);
    kept = new java.util.ArrayList<>(count);
    for (int j = 0; j < count; j++) {
      computeHost[j] = order[j];
      kept.add(new ArrayDeque<>());
    }
  }

  /** Schedules every job's first store at a random phase in the first interval. */
  void start(SplittableRandom phases) {
    long interval = grid.settings.intervalMinutes() * DurabilitySettings.MINUTE;
    for (int j = 0; j < computeHost.length; j++) {
      int job = j;
      grid.loop.schedule(grid.settings.monthStart() + phases.nextLong(interval), () -> store(job));
    }
  }

  private void store(int job) {
    DurabilitySettings s = grid.settings;
    long now = grid.loop.now();
    int m = redundancy.dataFragments();
    int k = redundancy.parityFragments();
    long pieceBytes = (s.versionBytes() + m - 1) / m;
    List<Candidate> candidates = grid.candidates(computeHost[job], pieceBytes, m + k, d -> false, policies);
    SlotHistory.Scores scores = grid.history.scores(computeHost[job], now);
    PlacementRequest request = new PlacementRequest(s.versionBytes(), m, k, scores.mttfSeconds(), s.intervalMinutes() * 60.0,
        (now - s.monthStart()) / 1000.0, s.uplink(), 0);
    grid.tally.stores++;
    try {
      Placement p = policies.place(candidates, request, grid.load());
      int[] holders = new int[m + k];
      Arrays.fill(holders, -1);
      Version v = new Version(grid.versions.size(), job, m, pieceBytes, computeHost[job], holders, new int[m + k]);
      grid.versions.add(v);
      for (int i = 0; i < m + k; i++) {
        grid.addPiece(v, i, grid.donorOf(p.hosts().get(i)));
      }
      grid.tally.live(v, now);
      grid.tally.labsPlaced += Arrays.stream(holders).map(d -> d / grid.labSize).distinct().count();
      Deque<Version> mine = kept.get(job);
      if (!mine.isEmpty()) {
        mine.peekLast().latest = false;
      }
      mine.addLast(v);
      while (mine.size() > s.keep()) {
        grid.delete(mine.removeFirst());
      }
    } catch (NotEnoughHostsException e) {
      grid.tally.storesFailed++;
    }
    long next = now + s.intervalMinutes() * DurabilitySettings.MINUTE;
    if (next < s.horizon()) {
      grid.loop.schedule(next, () -> store(job));
    }
  }

  /** The versions kept now (the latest {@code keep} of each job). */
  Iterable<Version> kept() {
    return () -> kept.stream().flatMap(Deque::stream).iterator();
  }

  private static int[] shuffled(int n, SplittableRandom r) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }
}
