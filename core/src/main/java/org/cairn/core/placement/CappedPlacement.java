package org.cairn.core.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/*
 * A placement policy with the per-donor cap (LoadCap): the inner policy ranks the eligible donors under the bound
 * only. The cap never makes a placement fail that the inner policy would make: when fewer than n eligible donors are
 * under the bound, it is lifted for the least-loaded of the rest (by held bytes, ties by id), just enough of them to
 * make n, and the inner policy places over those; and when fewer alternates than asked are under the bound, the
 * least-loaded donors over it follow as further alternates. Only with fewer than n eligible donors at all does it
 * throw, as the inner policy does.
 */
public final class CappedPlacement implements PlacementPolicy {
  private final PlacementPolicy inner;
  private final LoadCap cap;

  public CappedPlacement(PlacementPolicy inner, LoadCap cap) {
    this.inner = java.util.Objects.requireNonNull(inner, "inner");
    this.cap = java.util.Objects.requireNonNull(cap, "cap");
  }

  public LoadCap cap() {
    return cap;
  }

  @Override
  public String name() {
    return inner.name();
  }

  /** Places over the candidates, the grid's load being theirs (every candidate given, DOWN ones too). */
  @Override
  public Placement place(List<Candidate> candidates, PlacementRequest request) throws NotEnoughHostsException {
    return place(candidates, request, LoadCap.GridLoad.of(candidates));
  }

  /**
   * Places over the candidates with the bound taken from {@code grid} (a caller that hands placement a shortlist, as
   * the durability simulation does, gives the whole grid's load here).
   */
  public Placement place(List<Candidate> candidates, PlacementRequest request, LoadCap.GridLoad grid) throws NotEnoughHostsException {
    List<Candidate> eligible = PlacementPolicy.eligible(candidates, request);
    if (eligible.size() < request.n()) {
      throw NotEnoughHostsException.of(candidates, request);
    }
    double bound = cap.bound(grid, request);
    List<Candidate> pool = new ArrayList<>();
    List<Candidate> over = new ArrayList<>();
    for (Candidate c : eligible) {
      (LoadCap.admits(c.heldBytes(), bound) ? pool : over).add(c);
    }
    if (over.isEmpty()) {
      return inner.place(eligible, request);
    }
    over.sort(Comparator.comparingLong(Candidate::heldBytes).thenComparing(Candidate::id));
    int lifted = Math.max(0, request.n() - pool.size());
    pool.addAll(over.subList(0, lifted));
    Placement p = inner.place(pool, request);
    int wanted = request.alternates() - p.alternates().size();
    if (wanted <= 0) {
      return p;
    }
    Set<String> named = new HashSet<>(p.hosts());
    named.addAll(p.alternates());
    List<String> alternates = new ArrayList<>(p.alternates());
    for (int i = lifted; i < over.size() && alternates.size() < request.alternates(); i++) {
      if (!named.contains(over.get(i).id())) {
        alternates.add(over.get(i).id());
      }
    }
    return new Placement(p.hosts(), alternates, p.objective());
  }
}
