package org.cairn.core.placement;

import java.util.List;

/**
 * The result of placement: the n chosen hosts in fragment order (fragment i goes to
 * {@code hosts.get(i)}), ranked alternates for replacing a host that refuses or fails, and the
 * objective value of the choice (NaN for baselines that do not use it).
 */
public final class Placement {
  private final List<String> hosts;
  private final List<String> alternates;
  private final double objective;

  public Placement(List<String> hosts, List<String> alternates, double objective) {
    this.hosts = List.copyOf(hosts);
    this.alternates = List.copyOf(alternates);
    this.objective = objective;
  }

  public List<String> hosts() {
    return hosts;
  }

  public List<String> alternates() {
    return alternates;
  }

  public double objective() {
    return objective;
  }

  @Override
  public String toString() {
    return "Placement" + hosts + " alternates " + alternates + " F=" + objective;
  }
}
