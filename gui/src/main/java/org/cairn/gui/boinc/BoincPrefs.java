package org.cairn.gui.boinc;

import java.time.DayOfWeek;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The BOINC preferences a donor's limits come from, in BOINC's own units, with BOINC's defaults where the
 * files are silent (the defaults the BOINC 7.20 client reports as its working preferences).
 *
 * @param netHours the network window of every day; equal ends (BOINC's 0-0) mean always
 * @param dayNetHours a weekday's own network window ({@code day_prefs} with net hours)
 * @param diskMaxUsedGb at most this many GB (10^9 bytes); 0 is no limit
 * @param diskMaxUsedPct at most this percentage of the volume; 0 is no limit
 * @param diskMinFreeGb leave at least this many GB free
 * @param maxBytesSecUp upload rate limit, bytes per second; 0 is none
 * @param maxBytesSecDown download rate limit, bytes per second; 0 is none
 * @param dailyXferLimitMb at most this many MB (10^6 bytes) up and down together per period; 0 is none
 * @param dailyXferPeriodDays the period of that limit in days; 0 turns the limit off, as in BOINC
 * @param runIfUserActive whether work goes on while the owner uses the computer
 * @param idleTimeToRun minutes without the owner before work starts again (when not run while active)
 * @param suspendCpuUsage suspend when other programs use more than this percentage of the CPU; 0 is never
 */
public record BoincPrefs(Hours netHours, Map<DayOfWeek, Hours> dayNetHours, double diskMaxUsedGb, double diskMaxUsedPct,
    double diskMinFreeGb, double maxBytesSecUp, double maxBytesSecDown, double dailyXferLimitMb, int dailyXferPeriodDays,
    boolean runIfUserActive, double idleTimeToRun, double suspendCpuUsage) {

  /** A window as BOINC writes it: hours of the day as fractions, 0-24. */
  public record Hours(double start, double end) {}

  public BoincPrefs {
    dayNetHours = dayNetHours.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(dayNetHours));
  }

  /** BOINC's defaults: what the client works with when no preference file says otherwise. */
  public static BoincPrefs defaults() {
    return new BoincPrefs(new Hours(0, 0), Map.of(), 0, 90, 0.1, 0, 0, 0, 0, true, 3, 25);
  }
}
