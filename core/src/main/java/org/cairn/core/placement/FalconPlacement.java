package org.cairn.core.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/*
 * FALCON's storage selection (§3.2.2–3.2.4). For compute host CH and candidates SH_i:
 *
 *   N_i = (n / m) / ABw(SH_i, CH)                                      eq. (2), seconds
 *   F   = (MTTF / CI) * sum_i C_i N_i  -  (T_curr + MTTF) * prod_i max(1 - C_i, CRLS_i)   eq. (3)-(5)
 *
 * minimised over sets of m + k hosts (C_i = 1 for chosen hosts). Greedy (§3.2.4): sort by CRLS
 * descending and by N ascending; hosts in the first m + k of both lists are chosen; then, while
 * fewer than m + k are chosen, add the unchosen host whose addition gives the smallest F, evaluating
 * every unchosen host each round. Adding host i changes the sum by N_i and multiplies the product by
 * CRLS_i, so each evaluation is O(1) and a round is O(V).
 *
 * Alternates: the greedy continued past m + k, so the first alternate is the host the same rule
 * would pick next (FALCON §3.3 step 6 re-chooses "based on minimizing the same objective").
 * Ties are broken by host id, so the result is deterministic.
 */
public final class FalconPlacement implements PlacementPolicy {

  @Override
  public String name() {
    return "falcon";
  }

  /**
   * N_i of eq. (2), in seconds; unknown bandwidth uses the request's default. ABw is the link's
   * rate capped by the host's disk rate when it reports one: FALCON's N_i is the time to move the
   * piece, and on a donor whose owner keeps the disk busy the disk, not the link, sets it.
   */
  public static double networkOverhead(Candidate c, PlacementRequest r) {
    return (double) r.imageBytes() / r.m() / c.expectedRate(r.defaultBandwidth());
  }

  /** F of eq. (3) for the given chosen set. */
  public static double objective(List<Candidate> chosen, PlacementRequest r) {
    double sum = 0;
    double product = 1;
    for (Candidate c : chosen) {
      sum += networkOverhead(c, r);
      product *= c.crls();
    }
    return objective(sum, product, r);
  }

  private static double objective(double sumN, double productCrls, PlacementRequest r) {
    return r.mttfSeconds() / r.intervalSeconds() * sumN - (r.usefulSeconds() + r.mttfSeconds()) * productCrls;
  }

  @Override
  public Placement place(List<Candidate> candidates, PlacementRequest request) throws NotEnoughHostsException {
    List<Candidate> pool = PlacementPolicy.eligible(candidates, request);
    int n = request.n();
    if (pool.size() < n) {
      throw NotEnoughHostsException.of(candidates, request);
    }
    int size = pool.size();
    double[] overhead = new double[size];
    for (int i = 0; i < size; i++) {
      overhead[i] = networkOverhead(pool.get(i), request);
    }
    Integer[] byCrls = indexes(size);
    java.util.Arrays.sort(byCrls, Comparator.<Integer>comparingDouble(i -> -pool.get(i).crls()).thenComparing(i -> pool.get(i).id()));
    Integer[] byOverhead = indexes(size);
    java.util.Arrays.sort(byOverhead, Comparator.<Integer>comparingDouble(i -> overhead[i]).thenComparing(i -> pool.get(i).id()));

    Set<Integer> topOverhead = new HashSet<>();
    for (int i = 0; i < n; i++) {
      topOverhead.add(byOverhead[i]);
    }
    boolean[] taken = new boolean[size];
    List<Integer> order = new ArrayList<>();
    double sum = 0;
    double product = 1;
    // Hosts in the first n of both lists, in CRLS order.
    for (int i = 0; i < n; i++) {
      int h = byCrls[i];
      if (topOverhead.contains(h)) {
        taken[h] = true;
        order.add(h);
        sum += overhead[h];
        product *= pool.get(h).crls();
      }
    }
    double chosenObjective = Double.NaN;
    int target = Math.min(size, n + request.alternates());
    while (order.size() < target) {
      int best = -1;
      double bestF = Double.POSITIVE_INFINITY;
      for (int h = 0; h < size; h++) {
        if (taken[h]) {
          continue;
        }
        double f = objective(sum + overhead[h], product * pool.get(h).crls(), request);
        if (best < 0 || f < bestF || (f == bestF && pool.get(h).id().compareTo(pool.get(best).id()) < 0)) {
          best = h;
          bestF = f;
        }
      }
      taken[best] = true;
      order.add(best);
      sum += overhead[best];
      product *= pool.get(best).crls();
      if (order.size() == n) {
        chosenObjective = objective(sum, product, request);
      }
    }
    if (order.size() == n && Double.isNaN(chosenObjective)) {
      chosenObjective = objective(sum, product, request);
    }
    List<String> hosts = new ArrayList<>();
    List<String> alternates = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      (i < n ? hosts : alternates).add(pool.get(order.get(i)).id());
    }
    return new Placement(hosts, alternates, chosenObjective);
  }

  private static Integer[] indexes(int n) {
    Integer[] a = new Integer[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }
}
