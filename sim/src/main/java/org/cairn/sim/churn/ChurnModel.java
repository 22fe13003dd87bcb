package org.cairn.sim.churn;

import java.util.SplittableRandom;

/**
 * Diurnal owner activity and correlated lab outages over a span of simulated time, drawn once from a seed (the same
 * seed, the same churn). Simulated time is milliseconds since midnight of day one.
 *
 * <p>Owner activity: each donor's owner starts sessions as a Poisson process whose rate in working hours is drawn per
 * donor from FALCON's BoilerGrid eviction rate (mean, sd, clamped to the range measured) and scaled down at night;
 * sessions last an exponential time. Outages: donors are grouped into labs of {@code labSize} (donor i is in lab
 * i / labSize); each lab fails as a Poisson process and stays down an exponential time, all its donors together.
 */
public final class ChurnModel {
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;

  private final ChurnParameters params;
  private final Intervals[] owners;
  private final Intervals[] labs;

  public ChurnModel(ChurnParameters params, int donors, long horizonMillis, long seed) {
    this.params = params;
    SplittableRandom root = new SplittableRandom(seed);
    owners = new Intervals[donors];
    for (int i = 0; i < donors; i++) {
      owners[i] = ownerSessions(root.split(), horizonMillis);
    }
    labs = new Intervals[labs(donors)];
    for (int l = 0; l < labs.length; l++) {
      labs[l] = outages(root.split(), horizonMillis);
    }
  }

  public int labs(int donors) {
    return (donors + params.labSize() - 1) / params.labSize();
  }

  public int labOf(int donor) {
    return donor / params.labSize();
  }

  public ChurnParameters parameters() {
    return params;
  }

  /** What donor {@code donor} is doing at simulated time {@code t}. */
  public Condition at(int donor, long t) {
    if (labs[labOf(donor)].covers(t)) {
      return Condition.OUTAGE;
    }
    return owners[donor].covers(t) ? Condition.OWNER_ACTIVE : Condition.IDLE;
  }

  /**
   * Donor {@code donor}'s owner sessions as [start, end) pairs of simulated milliseconds, sorted by start (they may
   * overlap): start0, end0, start1, end1, ... For a discrete-event simulation that needs the moments, not samples.
   */
  public long[] ownerSessions(int donor) {
    return owners[donor].bounds();
  }

  /** Lab {@code lab}'s outages as [start, end) pairs, sorted by start (they may overlap), as {@link #ownerSessions}. */
  public long[] outages(int lab) {
    return labs[lab].bounds();
  }

  /** Whether {@code t} falls in working hours. */
  public boolean daytime(long t) {
    long hour = Math.floorMod(t, DAY) / HOUR;
    return hour >= params.dayStartHour() && hour < params.dayEndHour();
  }

  /** Owner sessions of all donors started in [0, horizon). */
  public long ownerSessions() {
    long n = 0;
    for (Intervals o : owners) {
      n += o.count();
    }
    return n;
  }

  /** Lab outages started in [0, horizon). */
  public long outages() {
    long n = 0;
    for (Intervals l : labs) {
      n += l.count();
    }
    return n;
  }

  private Intervals ownerSessions(SplittableRandom r, long horizon) {
    double perHour = Math.max(params.sessionsPerHourMin(),
        Math.min(params.sessionsPerHourMax(), params.sessionsPerHourMean() + params.sessionsPerHourSd() * gaussian(r)));
    // thinning: candidates at the daytime rate, kept at night with the night factor
    return poisson(r, horizon, perHour / HOUR, params.sessionMinutesMean() * 60_000, true);
  }

  private Intervals outages(SplittableRandom r, long horizon) {
    if (params.labOutagesPerDay() <= 0) {
      return Intervals.NONE;
    }
    return poisson(r, horizon, params.labOutagesPerDay() / DAY, params.labOutageMinutesMean() * 60_000, false);
  }

  private Intervals poisson(SplittableRandom r, long horizon, double ratePerMilli, double meanLengthMillis, boolean diurnal) {
    long[] starts = new long[16];
    long[] ends = new long[16];
    int n = 0;
    for (double t = exponential(r, 1 / ratePerMilli); t < horizon; t += exponential(r, 1 / ratePerMilli)) {
      long at = (long) t;
      if (diurnal && !daytime(at) && r.nextDouble() >= params.nightActivityFactor()) {
        continue;
      }
      if (n == starts.length) {
        starts = java.util.Arrays.copyOf(starts, 2 * n);
        ends = java.util.Arrays.copyOf(ends, 2 * n);
      }
      starts[n] = at;
      ends[n] = at + Math.max(1, (long) exponential(r, meanLengthMillis));
      n++;
    }
    return Intervals.of(starts, ends, n);
  }

  private static double exponential(SplittableRandom r, double mean) {
    return -mean * Math.log(1 - r.nextDouble());
  }

  private static double gaussian(SplittableRandom r) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17
    return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
  }
}
