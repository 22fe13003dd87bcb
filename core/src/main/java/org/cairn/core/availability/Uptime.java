package org.cairn.core.availability;

/**
 * How long a compute host runs its job between interruptions, from its slotted history: the UP time
 * observed ({@code upSeconds}), the UP -> DOWN transitions in it ({@code interruptions}), and the mean
 * time to interruption with a 90% confidence interval under the exponential model (time-truncated
 * observation: low = 2T / chi2(0.95; 2n+2), high = 2T / chi2(0.05; 2n), none above with n = 0).
 *
 * With no interruption observed the maximum-likelihood mean is unbounded: the estimate is then the
 * larger of the observed UP time (a censored lower bound) and {@code fallbackSeconds}; with no UP time
 * at all it is {@code fallbackSeconds}. {@code confidence}: none (no UP slot), low (0-2 interruptions),
 * medium (3-9), high (10 or more).
 */
public record Uptime(double upSeconds, int interruptions, double mtbfSeconds, Double lowSeconds, Double highSeconds,
    String confidence) {

  /** The confidence of the interval reported. */
  public static final double LEVEL = 0.90;

  /** The estimate over the slots [fromSlot, toSlot) of a compute host's series of {@code slotMillis} slots. */
  public static Uptime of(StateSeries compute, long fromSlot, long toSlot, long slotMillis, double fallbackSeconds) {
    Availability.Observed o = Availability.observe(compute, fromSlot, toSlot);
    return of(o.upSlots() * slotMillis / 1000.0, o.failures(), fallbackSeconds);
  }

  /** The mean time to interruption alone ({@link #of(double, int, double)}'s, without its interval). */
  public static double mean(double upSeconds, int interruptions, double fallbackSeconds) {
    return upSeconds == 0 ? fallbackSeconds : interruptions == 0 ? Math.max(upSeconds, fallbackSeconds) : upSeconds / interruptions;
  }

  /** The estimate from {@code upSeconds} of UP time with {@code interruptions} in it. */
  public static Uptime of(double upSeconds, int interruptions, double fallbackSeconds) {
    if (upSeconds < 0 || interruptions < 0 || !(fallbackSeconds > 0)) {
      throw new IllegalArgumentException("up time and interruptions must not be negative, the fallback positive");
    }
    if (upSeconds == 0) {
      return new Uptime(0, interruptions, fallbackSeconds, null, null, "none");
    }
    double low = 2 * upSeconds / ChiSquare.quantile(1 - (1 - LEVEL) / 2, 2 * interruptions + 2);
    if (interruptions == 0) {
      return new Uptime(upSeconds, 0, Math.max(upSeconds, fallbackSeconds), low, null, "low");
    }
    double high = 2 * upSeconds / ChiSquare.quantile((1 - LEVEL) / 2, 2 * interruptions);
    String confidence = interruptions < 3 ? "low" : interruptions < 10 ? "medium" : "high";
    return new Uptime(upSeconds, interruptions, upSeconds / interruptions, low, high, confidence);
  }

  /** Quantiles of the chi-square distribution with an even number of degrees of freedom (a Poisson tail). */
  static final class ChiSquare {
    private ChiSquare() {}

    /** x with P(chi2(dof) <= x) = p, for even dof >= 2, to 1e-9 relative. */
    static double quantile(double p, int dof) {
      if (dof < 2 || dof % 2 != 0 || !(p > 0 && p < 1)) {
        throw new IllegalArgumentException("even dof >= 2 and 0 < p < 1, was dof " + dof + ", p " + p);
      }
      double lo = 0;
      double hi = dof + 20 * Math.sqrt(2.0 * dof) + 50;
      while (hi - lo > 1e-9 * hi) {
        double mid = (lo + hi) / 2;
        if (cdf(mid, dof) < p) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      return (lo + hi) / 2;
    }

    /** P(chi2(dof) <= x) = 1 - sum_{i < dof/2} e^{-x/2} (x/2)^i / i!, the terms summed in log space. */
    static double cdf(double x, int dof) {
      if (x <= 0) {
        return 0;
      }
      double lambda = x / 2;
      double logTerm = -lambda;
      double tail = 0;
      for (int i = 0; i < dof / 2; i++) {
        if (i > 0) {
          logTerm += Math.log(lambda) - Math.log(i);
        }
        tail += Math.exp(logTerm);
      }
      return Math.max(0, 1 - tail);
    }
  }
}
