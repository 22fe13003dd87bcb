package org.cairn.core.availability;

/*
 * Correlated Reliability Load Score, FALCON §3.2.1, eq. (1), for storage host SH and compute host CH
 * over a window of aligned history:
 *
 *   CR   = P(SH in RUNNING|LOADED|BUSY | CH DOWN)                    if P(CH DOWN) > 0, else gamma
 *   LI   = alpha * P(SH RUNNING | CH UP) + (1 - alpha) * P(SH LOADED | CH UP)   if P(CH UP) > 0, else 0
 *   CRLS = gamma + LI  if CR >= gamma,  else CR                        (a score in [0, 2])
 *
 * Defaults from the paper: gamma = 0.95, alpha = 0.75. A condition that never occurred while both
 * hosts were observed counts as "probability 0" of the condition, as the paper's cases do.
 */
public final class Crls {
  public static final double DEFAULT_GAMMA = 0.95;
  public static final double DEFAULT_ALPHA = 0.75;

  private final double gamma;
  private final double alpha;

  public Crls(double gamma, double alpha) {
    if (!(gamma > 0 && gamma <= 1)) {
      throw new IllegalArgumentException("gamma must be in (0, 1], was " + gamma);
    }
    if (!(alpha >= 0 && alpha <= 1)) {
      throw new IllegalArgumentException("alpha must be in [0, 1], was " + alpha);
    }
    this.gamma = gamma;
    this.alpha = alpha;
  }

  public static Crls defaults() {
    return new Crls(DEFAULT_GAMMA, DEFAULT_ALPHA);
  }

  public double gamma() {
    return gamma;
  }

  public double alpha() {
    return alpha;
  }

  /** CR(SH, CH) over [from, to). */
  public double correlatedReliability(StateSeries storage, StateSeries compute, long from, long to) {
    double p = Availability.conditional(storage, compute, StateSeries.COMPUTE_DOWN, from, to,
        HostState.RUNNING, HostState.LOADED, HostState.BUSY);
    return Double.isNaN(p) ? gamma : p;
  }

  /** LI(SH, CH) over [from, to). */
  public double loadIndicator(StateSeries storage, StateSeries compute, long from, long to) {
    double running = Availability.conditional(storage, compute, StateSeries.UP, from, to, HostState.RUNNING);
    if (Double.isNaN(running)) {
      return 0;
    }
    double loaded = Availability.conditional(storage, compute, StateSeries.UP, from, to, HostState.LOADED);
    return alpha * running + (1 - alpha) * loaded;
  }

  /** CRLS(SH, CH) over [from, to), eq. (1). */
  public double score(StateSeries storage, StateSeries compute, long from, long to) {
    return combine(correlatedReliability(storage, compute, from, to), loadIndicator(storage, compute, from, to));
  }

  /** Eq. (1) from CR and LI. */
  public double combine(double cr, double li) {
    return cr >= gamma ? gamma + li : cr;
  }
}
