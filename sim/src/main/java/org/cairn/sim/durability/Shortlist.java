package org.cairn.sim.durability;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/*
 * The donors a placement call is given, fewer than all the eligible ones where that cannot change the answer (a month
 * places ~10^5 versions over ~10^3 candidates each; sorting them all twice a call would take the run's whole budget).
 *
 * FALCON: every donor here has the same link, so every N_i of eq. (2) is the same, and FalconPlacement's greedy
 * (core/placement) takes the hosts in the first n of both of its lists and then, each round, the unchosen host of
 * highest CRLS (F falls as the product of CRLS grows, while the product is positive), ties by id. So its answer over
 * all eligible donors equals its answer over (a) the first n eligible by id (its by-overhead list, all ties), and
 * (b) the eligible donors whose CRLS is at least the n-th highest: the host a round picks always has a CRLS at least
 * that high, and among equal CRLS the lowest id, which (b) takes first. Should the product reach 0, every host scores
 * the same and the lowest unchosen id wins, which is in (a). ShortlistTest checks the equality on random instances
 * with ties and zeros. (Not covered: F values of different CRLS that round to the same double; here the re-execution
 * term is ~10^3 times the overhead term, so they do not.) A CRLS of 0 in the shortlist still falls back to every
 * eligible donor, as a guard.
 *
 * Random: RandomPlacement draws n uniformly from what it is given; given a uniform draw of 8n of the eligible donors,
 * its n are still a uniform draw from all of them (the same distribution, not the same hosts).
 */
final class Shortlist {
  private Shortlist() {}

  /** Donor numbers for FALCON: exactly the ones its answer can come from, or every eligible one when that is not sure. */
  static int[] falcon(SlotHistory.Scores scores, int[] byId, int n, IntPredicate eligible) {
    Set<Integer> out = new LinkedHashSet<>();
    for (int i = 0, taken = 0; i < byId.length && taken < n; i++) {
      if (eligible.test(byId[i])) {
        out.add(byId[i]);
        taken++;
      }
    }
    double threshold = Double.NaN;
    int taken = 0;
    for (int d : scores.byCrls()) {
      if (!eligible.test(d)) {
        continue;
      }
      double c = scores.crls()[d];
      if (taken >= n && c < threshold) {
        break;
      }
      out.add(d);
      taken++;
      if (taken == n) {
        threshold = c;
      }
    }
    for (int d : out) {
      if (!(scores.crls()[d] > 0)) {
        return all(byId.length, eligible);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Up to {@code 8n} eligible donors drawn uniformly (all of them if there are no more). */
  static int[] random(int donors, int n, IntPredicate eligible, SplittableRandom r) {
    int[] all = all(donors, eligible);
    int want = Math.min(all.length, 8 * n);
    for (int i = 0; i < want; i++) {
      int j = i + r.nextInt(all.length - i);
      int t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    return java.util.Arrays.copyOf(all, want);
  }

  static int[] all(int donors, IntPredicate eligible) {
    List<Integer> out = new ArrayList<>();
    for (int d = 0; d < donors; d++) {
      if (eligible.test(d)) {
        out.add(d);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }
}
