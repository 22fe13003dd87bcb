package org.cairn.core.interval;

/**
 * The checkpoint interval that loses the least work for a checkpoint that costs the job {@code C}
 * seconds on a host interrupted every {@code M} seconds on average (both positive):
 *
 * <pre>
 *   Young (1974):  T = sqrt(2 C M)
 *   Daly (2006):   T = sqrt(2 C M) [1 + 1/3 sqrt(C / 2M) + 1/9 (C / 2M)] - C     for C < 2M
 *                  T = M                                                         otherwise
 * </pre>
 *
 * Young's first-order form is what both give when C is small against M; Daly's higher-order form is
 * chosen once C is at least {@link #DALY_FROM} of M, where Young's overestimates. T is the compute time
 * between the end of one checkpoint and the start of the next.
 */
public final class CheckpointInterval {
  /** C / M from which Daly's form is used. */
  public static final double DALY_FROM = 0.01;

  private CheckpointInterval() {}

  /** What {@link #optimal} chose: the interval, the formula's name and both forms' values (seconds). */
  public record Choice(double seconds, String formula, double young, double daly) {}

  public static double young(double c, double m) {
    check(c, m);
    return Math.sqrt(2 * c * m);
  }

  public static double daly(double c, double m) {
    check(c, m);
    if (c >= 2 * m) {
      return m;
    }
    double r = c / (2 * m);
    return Math.sqrt(2 * c * m) * (1 + Math.sqrt(r) / 3 + r / 9) - c;
  }

  /** Young's form while C is small against M, Daly's from {@link #DALY_FROM}. */
  public static Choice optimal(double c, double m) {
    double young = young(c, m);
    double daly = daly(c, m);
    boolean small = c < DALY_FROM * m;
    return new Choice(small ? young : daly, small ? "young" : "daly", young, daly);
  }

  private static void check(double c, double m) {
    if (!(c > 0) || !(m > 0) || Double.isInfinite(c) || Double.isInfinite(m)) {
      throw new IllegalArgumentException("checkpoint cost and mean time to interruption must be positive and finite, were "
          + c + " s and " + m + " s");
    }
  }
}
