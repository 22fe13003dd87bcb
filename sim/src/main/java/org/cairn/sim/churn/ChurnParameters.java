package org.cairn.sim.churn;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The churn model's parameters (the published figures and the assumptions, each named in {@code churn.properties}
 * and docs/simulation.md).
 *
 * @param sessionsPerHourMean owners' activity sessions per hour in working hours (FALCON's evictions per hour)
 * @param sessionMinutesMean an owner's session's mean length
 * @param labSize donors that fail together
 * @param labOutagesPerDay outages a lab has per day
 * @param labOutageMinutesMean an outage's mean length
 */
public record ChurnParameters(double sessionsPerHourMean, double sessionsPerHourSd, double sessionsPerHourMin,
    double sessionsPerHourMax, double sessionMinutesMean, int dayStartHour, int dayEndHour, double nightActivityFactor,
    int labSize, double labOutagesPerDay, double labOutageMinutesMean) {

  public ChurnParameters {
    if (labSize < 1 || sessionMinutesMean <= 0 || labOutageMinutesMean <= 0 || sessionsPerHourMin > sessionsPerHourMax
        || dayStartHour < 0 || dayEndHour > 24 || dayStartHour >= dayEndHour || nightActivityFactor < 0 || nightActivityFactor > 1) {
      throw new IllegalArgumentException("churn parameters out of range: " + this);
    }
  }

  /** The published figures and the assumptions shipped with the simulator. */
  public static ChurnParameters published() {
    Properties p = new Properties();
    try (InputStream in = ChurnParameters.class.getResourceAsStream("churn.properties")) {
      if (in == null) {
        throw new IllegalStateException("churn.properties is missing from the simulator's jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ChurnParameters(d(p, "owner.sessionsPerHour.mean"), d(p, "owner.sessionsPerHour.sd"), d(p, "owner.sessionsPerHour.min"),
        d(p, "owner.sessionsPerHour.max"), d(p, "owner.sessionMinutes.mean"), (int) d(p, "day.startHour"), (int) d(p, "day.endHour"),
        d(p, "night.activityFactor"), (int) d(p, "lab.size"), d(p, "lab.outagesPerDay"), d(p, "lab.outageMinutes.mean"));
  }

  /** These parameters with correlated outages switched off (a run that measures only the control plane's steady state). */
  public ChurnParameters withoutOutages() {
    return new ChurnParameters(sessionsPerHourMean, sessionsPerHourSd, sessionsPerHourMin, sessionsPerHourMax, sessionMinutesMean,
        dayStartHour, dayEndHour, nightActivityFactor, labSize, 0, labOutageMinutesMean);
  }

  /** These parameters with {@code perDay} outages per lab per day (a harsher or milder grid). */
  public ChurnParameters withOutages(double perDay) {
    if (!(perDay >= 0)) {
      throw new IllegalArgumentException("outages per day must be >= 0, was " + perDay);
    }
    return new ChurnParameters(sessionsPerHourMean, sessionsPerHourSd, sessionsPerHourMin, sessionsPerHourMax, sessionMinutesMean,
        dayStartHour, dayEndHour, nightActivityFactor, labSize, perDay, labOutageMinutesMean);
  }

  private static double d(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IllegalStateException("churn.properties has no " + key);
    }
    return Double.parseDouble(v.strip());
  }
}
