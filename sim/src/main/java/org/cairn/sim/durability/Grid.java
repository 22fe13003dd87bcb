package org.cairn.sim.durability;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import org.cairn.core.availability.HostState;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.LoadCap;
import org.cairn.core.placement.PlacementRequest;

/**
 * One run's grid as bookkeeping: the donors, the versions and who holds their pieces, the donors' used quota and when
 * their uplinks are free, and the versions whose health changed since the repair scan last looked (the tracker walks
 * its index; a set of the touched versions gives the same queue). Reacts to the world's events as a tracker's catalog
 * would see them.
 */
final class Grid implements Donors.Listener {
  final DurabilitySettings settings;
  final Donors donors;
  final SlotHistory history;
  final EventLoop loop;
  final Tally tally;
  final List<Version> versions = new ArrayList<>();
  final String[] ids;
  final int labSize;
  private final List<Set<Integer>> held;
  private final long[] used;
  /** The sum of {@code used}: the grid's load the cap compares a donor with. */
  private long totalUsed;
  /** When each donor's uplink is next free (simulated ms): the pieces it sends queue behind each other. */
  final long[] uplinkFree;
  /** Donors running a repair job (one each), and donors a rebuilt piece is on its way to. */
  final boolean[] executing;
  final boolean[] receiving;
  /** Versions to look at in the next scan, in id order. */
  final Set<Integer> touched = new TreeSet<>();

  Grid(DurabilitySettings settings, WorldEvents world, SlotHistory history, EventLoop loop) {
    this.settings = settings;
    this.donors = new Donors(world.donors(), world.labSize());
    this.history = history;
    this.loop = loop;
    this.tally = new Tally(settings.days(), world.donors(), settings.monthStart());
    this.labSize = world.labSize();
    int n = world.donors();
    ids = new String[n];
    held = new ArrayList<>(n);
    for (int d = 0; d < n; d++) {
      ids[d] = history.id(d);
      held.add(new LinkedHashSet<>());
    }
    used = new long[n];
    uplinkFree = new long[n];
    executing = new boolean[n];
    receiving = new boolean[n];
  }

  int donorOf(String id) {
    return history.donor(id);
  }

  long free(int d) {
    return settings.quotaBytes() - used[d];
  }

  /**
   * The candidates placement sees for a store or a repair of {@code n} pieces by {@code computeHost}: RUNNING donors with
   * room for a piece, less {@code exclude}, with their CRLS against the compute host and the per-donor link as their
   * bandwidth; shortlisted for the run's placement ({@link Shortlist}).
   */
  List<Candidate> candidates(int computeHost, long pieceBytes, int n, IntPredicate exclude, Policies policies) {
    SlotHistory.Scores scores = history.scores(computeHost, loop.now());
    IntPredicate eligible = d -> d != computeHost && donors.running(d) && free(d) >= pieceBytes && !exclude.test(d);
    LoadCap cap = policies.cap();
    double bound = cap == null ? Double.POSITIVE_INFINITY
        : cap.bound(load(), new PlacementRequest(pieceBytes * n, n, 0, 3600, 600, 0, settings.uplink(), 0));
    List<Candidate> out = new ArrayList<>();
    for (int d : policies.shortlist(scores, history.byId(), n, eligible, d -> LoadCap.admits(used[d], bound))) {
      // the simulation's donors report what they hold, and that is what was placed there
      out.add(new Candidate(ids[d], HostState.RUNNING, free(d), scores.crls()[d], settings.uplink()).withHeld(used[d], used[d]));
    }
    return out;
  }

  /** What the whole grid holds, over every donor (DOWN ones too), for the cap's bound. */
  LoadCap.GridLoad load() {
    return new LoadCap.GridLoad(totalUsed, used.length);
  }

  /** Donors that hold at least one piece now. */
  int holders() {
    int n = 0;
    for (long u : used) {
      n += u > 0 ? 1 : 0;
    }
    return n;
  }

  /** Puts piece {@code index} of {@code v} on {@code donor}; a piece it replaces, if still there, becomes garbage. */
  void addPiece(Version v, int index, int donor) {
    int old = v.holder[index];
    if (old >= 0 && v.present(index, donors)) {
      held.get(old).remove(v.id);
      used[old] -= v.pieceBytes;
      totalUsed -= v.pieceBytes;
    }
    v.holder[index] = donor;
    v.generation[index] = donors.generation(donor);
    held.get(donor).add(v.id);
    used[donor] += v.pieceBytes;
    totalUsed += v.pieceBytes;
    tally.mostHeld = Math.max(tally.mostHeld, used[donor]);
  }

  /** Deletes a version: its pieces are garbage on their donors. */
  void delete(Version v) {
    v.deleted = true;
    tally.readable(v, loop.now());
    for (int i = 0; i < v.n(); i++) {
      if (v.present(i, donors)) {
        held.get(v.holder[i]).remove(v.id);
        used[v.holder[i]] -= v.pieceBytes;
        totalUsed -= v.pieceBytes;
      }
    }
    touched.remove(v.id);
  }

  /** Counts a version's live pieces again after one of its holders changed. */
  void recount(Version v, long t) {
    int live = 0;
    int present = 0;
    for (int i = 0; i < v.n(); i++) {
      if (v.present(i, donors)) {
        present++;
        live += donors.up(v.holder[i]) ? 1 : 0;
      }
    }
    v.live = live;
    tally.live(v, t);
    if (present < v.m && !v.lost) {
      v.lost = true;
      tally.lost++;
    }
    touched.add(v.id);
  }

  @Override
  public void wentDown(int donor, long at) {
    for (int id : held.get(donor)) {
      recount(versions.get(id), at);
    }
  }

  @Override
  public void cameUp(int donor, long at) {
    wentDown(donor, at);
  }

  @Override
  public void wiped(int donor, long at) {
    Set<Integer> gone = held.get(donor);
    held.set(donor, new LinkedHashSet<>());
    totalUsed -= used[donor];
    used[donor] = 0;
    for (int id : gone) {
      recount(versions.get(id), at);
    }
  }
}
