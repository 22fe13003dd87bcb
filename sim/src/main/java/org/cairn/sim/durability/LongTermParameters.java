package org.cairn.sim.durability;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * How donors lose their pieces for good over weeks (a "wipe"): they leave the grid, or their disk fails. Each donor
 * is wiped as a Poisson process of both rates and comes back empty (a new donor in its place, or the same one with a
 * new disk) after an exponential time. The values and their sources are in {@code durability.properties}.
 *
 * @param lifetimeDaysMean a donor's mean time in the grid before it leaves
 * @param replacementDaysMean how long a departed donor's place stays empty
 * @param diskLossesPerYear disk failures per donor-year
 * @param diskRepairDaysMean how long a donor whose disk failed stays down
 */
public record LongTermParameters(double lifetimeDaysMean, double replacementDaysMean, double diskLossesPerYear,
    double diskRepairDaysMean) {

  public LongTermParameters {
    if (!(lifetimeDaysMean > 0) || !(replacementDaysMean > 0) || !(diskLossesPerYear >= 0) || !(diskRepairDaysMean > 0)) {
      throw new IllegalArgumentException("long-term failure parameters out of range: " + this);
    }
  }

  /** The published figures and the assumptions shipped with the simulator. */
  public static LongTermParameters published() {
    Properties p = new Properties();
    try (InputStream in = LongTermParameters.class.getResourceAsStream("durability.properties")) {
      if (in == null) {
        throw new IllegalStateException("durability.properties is missing from the simulator's jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new LongTermParameters(d(p, "donor.lifetimeDays.mean"), d(p, "donor.replacementDays.mean"), d(p, "disk.lossesPerYear"),
        d(p, "disk.repairDays.mean"));
  }

  /** Wipes per donor per day, departures and disk losses together. */
  public double wipesPerDay() {
    return 1 / lifetimeDaysMean + diskLossesPerYear / 365.0;
  }

  /** The share of wipes that are departures (the rest are disk losses). */
  public double departureShare() {
    return (1 / lifetimeDaysMean) / wipesPerDay();
  }

  private static double d(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IllegalStateException("durability.properties has no " + key);
    }
    return Double.parseDouble(v.strip());
  }
}
