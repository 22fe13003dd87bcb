package org.cairn.core.placement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/** Baseline: n hosts drawn uniformly from the eligible ones (deterministic for a seed and candidate set). */
public final class RandomPlacement implements PlacementPolicy {
  private final long seed;

  public RandomPlacement(long seed) {
    this.seed = seed;
  }

  @Override
  public String name() {
    return "random";
  }

  @Override
  public Placement place(List<Candidate> candidates, PlacementRequest request) throws NotEnoughHostsException {
    List<Candidate> pool = new ArrayList<>(PlacementPolicy.eligible(candidates, request));
    if (pool.size() < request.n()) {
      throw NotEnoughHostsException.of(candidates, request);
    }
    pool.sort(Comparator.comparing(Candidate::id)); // independent of input order
    Collections.shuffle(pool, new java.util.Random(new SplittableRandom(seed).nextLong()));
    List<String> ids = new ArrayList<>();
    for (Candidate c : pool) {
      ids.add(c.id());
    }
    int end = Math.min(ids.size(), request.n() + request.alternates());
    return new Placement(ids.subList(0, request.n()), ids.subList(request.n(), end), Double.NaN);
  }
}
