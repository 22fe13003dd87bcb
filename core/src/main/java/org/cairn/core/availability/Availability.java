package org.cairn.core.availability;

/*
 * Statistics over slotted state history (FALCON §3.2.1, Table 2), as pure functions of the series
 * and a window [fromSlot, toSlot). Slots where a needed host is UNKNOWN are left out of both the
 * numerator and the denominator.
 *
 * FULL (S0') counts as RUNNING here: FALCON uses S0' only for admission, not to predict load.
 */
public final class Availability {
  private Availability() {}

  /** P(state) for each storage state over the window, indexed by {@link HostState#code()}; all 0 if never observed. */
  public static double[] stateProbabilities(StateSeries host, long fromSlot, long toSlot) {
    long[] counts = new long[HostState.values().length];
    long known = 0;
    for (long s = fromSlot; s < toSlot; s++) {
      byte c = host.at(s);
      if (c != StateSeries.UNKNOWN) {
        counts[c]++;
        known++;
      }
    }
    double[] p = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      p[i] = known == 0 ? 0 : (double) counts[i] / known;
    }
    return p;
  }

  /** P(compute host in {@code computeState}) over the window; 0 if never observed. */
  public static double computeProbability(StateSeries compute, byte computeState, long fromSlot, long toSlot) {
    long hits = 0;
    long known = 0;
    for (long s = fromSlot; s < toSlot; s++) {
      byte c = compute.at(s);
      if (c != StateSeries.UNKNOWN) {
        known++;
        if (c == computeState) {
          hits++;
        }
      }
    }
    return known == 0 ? 0 : (double) hits / known;
  }

  /**
   * P(storage host in one of {@code storageStates} | compute host in {@code computeState}) over the
   * window, from slots where both are known; {@code NaN} if the condition never occurred.
   */
  public static double conditional(StateSeries storage, StateSeries compute, byte computeState, long fromSlot, long toSlot,
      HostState... storageStates) {
    int mask = 0;
    for (HostState s : storageStates) {
      mask |= 1 << s.code();
      if (s == HostState.RUNNING) {
        mask |= 1 << HostState.FULL.code();
      }
    }
    long hits = 0;
    long given = 0;
    for (long s = fromSlot; s < toSlot; s++) {
      byte c = compute.at(s);
      byte h = storage.at(s);
      if (c == computeState && h != StateSeries.UNKNOWN) {
        given++;
        if ((mask & (1 << h)) != 0) {
          hits++;
        }
      }
    }
    return given == 0 ? Double.NaN : (double) hits / given;
  }

  /** What a compute host's series shows over a window: its UP slots and its UP -> DOWN transitions. */
  public record Observed(long upSlots, int failures) {}

  /** The UP slots and UP -> DOWN transitions of {@code compute} over the slots [fromSlot, toSlot). */
  public static Observed observe(StateSeries compute, long fromSlot, long toSlot) {
    long up = 0;
    int failures = 0;
    byte previous = StateSeries.UNKNOWN;
    for (long s = fromSlot; s < toSlot; s++) {
      byte c = compute.at(s);
      if (c == StateSeries.UP) {
        up++;
      } else if (c == StateSeries.COMPUTE_DOWN && previous == StateSeries.UP) {
        failures++;
      }
      if (c != StateSeries.UNKNOWN) {
        previous = c;
      }
    }
    return new Observed(up, failures);
  }

  /**
   * Mean time to failure of a compute host in slots: observed UP slots divided by UP -> DOWN
   * transitions in the window. With no failure observed, the observed UP time is returned (a
   * censored, conservative estimate); with no UP slot at all, 0.
   */
  public static double mttfSlots(StateSeries compute, long fromSlot, long toSlot) {
    Observed o = observe(compute, fromSlot, toSlot);
    return o.failures() == 0 ? o.upSlots() : (double) o.upSlots() / o.failures();
  }
}
