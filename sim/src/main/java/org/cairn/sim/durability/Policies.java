package org.cairn.sim.durability;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import org.cairn.core.placement.CappedPlacement;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.FalconPlacement;
import org.cairn.core.placement.LoadCap;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementRequest;
import org.cairn.core.placement.RandomPlacement;

/**
 * The placement a run compares, used for stores and for repair targets alike: core's {@link FalconPlacement} as the
 * paper has it ({@code falcon}), with core's per-donor cap ({@code capped}, or {@code capped:FACTOR}; what the tracker's
 * {@code falcon} is), or its {@link RandomPlacement} baseline with a fresh seed from the run's stream for each call.
 * (The tracker ranks repair targets with its FALCON whatever the stores use; a random run repairs at random too, so it
 * is the baseline throughout.)
 */
final class Policies {
  private final String name;
  private final SplittableRandom random;
  private final FalconPlacement falcon = new FalconPlacement();
  /** Null unless the run is capped. */
  private final CappedPlacement capped;

  Policies(String name, SplittableRandom random) {
    this.name = name;
    this.random = random;
    LoadCap cap = cap(name);
    this.capped = cap == null ? null : new CappedPlacement(falcon, cap);
  }

  /**
   * The cap a placement spec names: {@code capped} is core's default, {@code capped:F} F times the mean; null for
   * {@code falcon} and {@code random}. Throws naming the spec for anything else.
   */
  static LoadCap cap(String spec) {
    if (spec.equals("falcon") || spec.equals("random")) {
      return null;
    }
    if (spec.equals("capped")) {
      return LoadCap.defaults();
    }
    if (spec.startsWith("capped:")) {
      try {
        return new LoadCap(Double.parseDouble(spec.substring(7)));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--placements: the cap in '" + spec + "' must be a number >= 1", e);
      }
    }
    throw new IllegalArgumentException("--placements takes falcon, capped[:FACTOR] and random, was '" + spec + "'");
  }

  /** Places with the run's policy; {@code grid} is the whole grid's load (the candidates are a shortlist). */
  Placement place(List<Candidate> candidates, PlacementRequest request, LoadCap.GridLoad grid) throws NotEnoughHostsException {
    if (capped != null) {
      return capped.place(candidates, request, grid);
    }
    return name.equals("falcon") ? falcon.place(candidates, request) : new RandomPlacement(random.nextLong()).place(candidates, request);
  }

  /**
   * The donors to hand the placement ({@link Shortlist}); for a capped run, FALCON's shortlist among the donors under
   * the cap ({@code admitted}), or every eligible donor when fewer than n are (the cap then lifts for the least loaded).
   */
  int[] shortlist(SlotHistory.Scores scores, int[] byId, int n, IntPredicate eligible, IntPredicate admitted) {
    if (name.equals("random")) {
      return Shortlist.random(byId.length, n, eligible, random);
    }
    if (capped == null) {
      return Shortlist.falcon(scores, byId, n, eligible);
    }
    int[] under = Shortlist.falcon(scores, byId, n, d -> eligible.test(d) && admitted.test(d));
    return under.length >= n ? under : Shortlist.all(byId.length, eligible);
  }

  /** The cap of a capped run, null otherwise. */
  LoadCap cap() {
    return capped == null ? null : capped.cap();
  }

  String name() {
    return name;
  }
}
