package org.cairn.sim.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import org.cairn.core.availability.HostState;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.FalconPlacement;
import org.cairn.core.placement.LoadCap;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.PlacementRequest;
import org.junit.jupiter.api.Test;

class ShortlistTest {
  private static List<Candidate> candidates(int[] donors, double[] crls, String[] ids) {
    List<Candidate> out = new ArrayList<>();
    for (int d : donors) {
      out.add(new Candidate(ids[d], HostState.RUNNING, 1L << 40, crls[d], 1.25e6));
    }
    return out;
  }

  /** Random ids (so id order is not donor order), and donors in id order. */
  private static String[] ids(int donors, SplittableRandom r) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    String[] ids = new String[donors];
    for (int d = 0; d < donors; d++) {
      do {
        ids[d] = String.format("peer-%08x", r.nextInt(1 << 12)); // few bits: ties in CRLS meet ids close together
      } while (!seen.add(ids[d]));
    }
    return ids;
  }

  @Test
  void falconChoosesTheSameHostsFromTheShortlistAsFromEveryEligibleDonor_tiesAndZeroScoresIncluded() throws NotEnoughHostsException {
    SplittableRandom r = new SplittableRandom(5);
    FalconPlacement falcon = new FalconPlacement();
    int shorter = 0;
    for (int trial = 0; trial < 400; trial++) {
      int donors = 20 + r.nextInt(300);
      double[] crls = new double[donors];
      for (int d = 0; d < donors; d++) {
        // few distinct values, so ties at the cut are common; now and then a 0
        crls[d] = trial % 5 == 0 && r.nextInt(20) == 0 ? 0 : Math.round(r.nextDouble() * (trial % 2 == 0 ? 8 : 1000)) / 4.0;
      }
      boolean[] ok = new boolean[donors];
      for (int d = 0; d < donors; d++) {
        ok[d] = r.nextInt(3) > 0;
      }
      IntPredicate eligible = d -> ok[d];
      int n = 1 + r.nextInt(9);
      if (Shortlist.all(donors, eligible).length < n) {
        continue;
      }
      String[] ids = ids(donors, r);
      int[] byId = java.util.stream.IntStream.range(0, donors).boxed().sorted(java.util.Comparator.comparing(d -> ids[d]))
          .mapToInt(Integer::intValue).toArray();
      int[] idRank = new int[donors];
      for (int i = 0; i < donors; i++) {
        idRank[byId[i]] = i;
      }
      SlotHistory.Scores scores = new SlotHistory.Scores(crls, 3600, SlotHistory.byCrls(crls, idRank));
      PlacementRequest request = new PlacementRequest(100_000_000L, Math.max(1, n - 2), Math.min(2, n - 1), 3600, 3600, r.nextInt(10_000),
          1.25e6, 0);
      int[] shortlist = Shortlist.falcon(scores, byId, request.n(), eligible);
      shorter += shortlist.length < Shortlist.all(donors, eligible).length ? 1 : 0;
      assertThat(falcon.place(candidates(shortlist, crls, ids), request).hosts()).as("trial " + trial)
          .isEqualTo(falcon.place(candidates(Shortlist.all(donors, eligible), crls, ids), request).hosts());
    }
    assertThat(shorter).as("the shortlist is shorter in most trials").isGreaterThan(200);
  }

  @Test
  void theRandomShortlistIsEightTimesTheHostsNeeded_drawnFromTheEligibleOnly() {
    SplittableRandom r = new SplittableRandom(1);
    int[] picked = Shortlist.random(1000, 6, d -> d % 2 == 0, r);
    assertThat(picked).hasSize(48).doesNotHaveDuplicates();
    assertThat(java.util.Arrays.stream(picked).allMatch(d -> d % 2 == 0)).isTrue();
    assertThat(Shortlist.random(20, 6, d -> d < 10, r)).hasSize(10);
  }

  /**
   * The capped run's shortlist (FALCON's among the donors under the cap, or every eligible donor when fewer than n are)
   * gives core's CappedPlacement the same answer as every eligible donor does, the fallback included.
   */
  @Test
  void cappedFalconChoosesTheSameHostsFromTheShortlistAsFromEveryEligibleDonor_whenTheCapLiftsToo() throws NotEnoughHostsException {
    SplittableRandom r = new SplittableRandom(9);
    int lifted = 0;
    for (int trial = 0; trial < 300; trial++) {
      int donors = 20 + r.nextInt(300);
      double[] crls = new double[donors];
      long[] held = new long[donors];
      boolean[] ok = new boolean[donors];
      for (int d = 0; d < donors; d++) {
        crls[d] = Math.round(r.nextDouble() * 8) / 4.0 + 0.25;
        held[d] = r.nextInt(4) == 0 ? r.nextLong(1L << 34) : r.nextLong(1L << 28);
        // in a third of the trials the eligible are mostly the loaded ones (the rest busy or down), so the cap lifts
        ok[d] = trial % 3 == 0 ? held[d] > 1L << 33 || r.nextInt(30) == 0 : r.nextInt(3) > 0;
      }
      IntPredicate eligible = d -> ok[d];
      int n = 1 + r.nextInt(9);
      if (Shortlist.all(donors, eligible).length < n) {
        continue;
      }
      String[] ids = ids(donors, r);
      int[] byId = java.util.stream.IntStream.range(0, donors).boxed().sorted(java.util.Comparator.comparing(d -> ids[d]))
          .mapToInt(Integer::intValue).toArray();
      int[] idRank = new int[donors];
      for (int i = 0; i < donors; i++) {
        idRank[byId[i]] = i;
      }
      SlotHistory.Scores scores = new SlotHistory.Scores(crls, 3600, SlotHistory.byCrls(crls, idRank));
      PlacementRequest request = new PlacementRequest(100_000_000L * n, n, 0, 3600, 600, 0, 1.25e6, 0);
      Policies capped = new Policies(trial % 2 == 0 ? "capped" : "capped:1.5", new SplittableRandom(trial));
      double bound = capped.cap().bound(new LoadCap.GridLoad(java.util.Arrays.stream(held).sum(), donors), request);
      LoadCap.GridLoad grid = new LoadCap.GridLoad(java.util.Arrays.stream(held).sum(), donors);
      int[] shortlist = capped.shortlist(scores, byId, n, eligible, d -> LoadCap.admits(held[d], bound));
      lifted += java.util.Arrays.stream(Shortlist.all(donors, eligible)).filter(d -> LoadCap.admits(held[d], bound)).count() < n ? 1 : 0;
      assertThat(capped.place(withHeld(shortlist, crls, ids, held), request, grid).hosts()).as("trial " + trial)
          .isEqualTo(capped.place(withHeld(Shortlist.all(donors, eligible), crls, ids, held), request, grid).hosts());
    }
    assertThat(lifted).as("trials where the cap had to lift").isGreaterThan(10);
  }

  private static List<Candidate> withHeld(int[] donors, double[] crls, String[] ids, long[] held) {
    List<Candidate> out = new ArrayList<>();
    for (int d : donors) {
      out.add(new Candidate(ids[d], HostState.RUNNING, 1L << 40, crls[d], 1.25e6).withHeld(held[d], held[d]));
    }
    return out;
  }
}
