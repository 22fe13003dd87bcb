package org.cairn.sim.durability;

import java.util.SplittableRandom;
import org.cairn.core.placement.FalconPlacement;
import org.cairn.core.placement.PlacementPolicy;
import org.cairn.core.placement.RandomPlacement;

/**
 * The placement a run compares, used for stores and for repair targets alike: core's {@link FalconPlacement}, or its
 * {@link RandomPlacement} baseline with a fresh seed from the run's stream for each call. (The tracker ranks repair
 * targets with FALCON whatever the stores use; a random run repairs at random too, so it is the baseline throughout.)
 */
final class Policies {
  private final String name;
  private final SplittableRandom random;
  private final PlacementPolicy falcon = new FalconPlacement();

  Policies(String name, SplittableRandom random) {
    this.name = name;
    this.random = random;
  }

  PlacementPolicy store() {
    return name.equals("falcon") ? falcon : new RandomPlacement(random.nextLong());
  }

  /** The donors to hand the placement ({@link Shortlist}). */
  int[] shortlist(SlotHistory.Scores scores, int[] byId, int n, java.util.function.IntPredicate eligible) {
    return name.equals("falcon") ? Shortlist.falcon(scores, byId, n, eligible) : Shortlist.random(byId.length, n, eligible, random);
  }

  String name() {
    return name;
  }
}
