package org.cairn.sim.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import org.cairn.core.availability.HostState;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.FalconPlacement;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.PlacementRequest;
import org.junit.jupiter.api.Test;

class ShortlistTest {
  private static List<Candidate> candidates(int[] donors, double[] crls) {
    List<Candidate> out = new ArrayList<>();
    for (int d : donors) {
      out.add(new Candidate(String.format("d%06d", d), HostState.RUNNING, 1L << 40, crls[d], 1.25e6));
    }
    return out;
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
      SlotHistory.Scores scores = new SlotHistory.Scores(crls, 3600, SlotHistory.byCrls(crls));
      PlacementRequest request = new PlacementRequest(100_000_000L, Math.max(1, n - 2), Math.min(2, n - 1), 3600, 3600, r.nextInt(10_000),
          1.25e6, 0);
      int[] shortlist = Shortlist.falcon(scores, donors, request.n(), eligible);
      shorter += shortlist.length < Shortlist.all(donors, eligible).length ? 1 : 0;
      assertThat(falcon.place(candidates(shortlist, crls), request).hosts()).as("trial " + trial)
          .isEqualTo(falcon.place(candidates(Shortlist.all(donors, eligible), crls), request).hosts());
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
}
