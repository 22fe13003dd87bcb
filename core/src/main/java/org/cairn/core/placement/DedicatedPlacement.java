package org.cairn.core.placement;

import java.util.Collections;
import java.util.List;

/**
 * Baseline: one always-on server receives every fragment (the "dedicated" storage of FALCON §6).
 * The same host is repeated n times; with no redundancy across hosts there are no alternates.
 */
public final class DedicatedPlacement implements PlacementPolicy {
  private final String host;

  public DedicatedPlacement(String host) {
    this.host = host;
  }

  @Override
  public String name() {
    return "dedicated:" + host;
  }

  @Override
  public Placement place(List<Candidate> candidates, PlacementRequest request) throws NotEnoughHostsException {
    for (Candidate c : candidates) {
      if (c.id().equals(host)) {
        if (!c.state().acceptsWrites() || c.freeBytes() < request.imageBytes()) {
          throw new NotEnoughHostsException(1, 0, candidates.size());
        }
        return new Placement(Collections.nCopies(request.n(), host), List.of(), Double.NaN);
      }
    }
    throw new NotEnoughHostsException(1, 0, candidates.size());
  }
}
