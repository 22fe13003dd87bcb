package org.cairn.gui.boinc;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Locale;
import java.util.Map;

/**
 * What a donor gives by BOINC's preferences, in the donor app's terms.
 *
 * @param quotaBytes the space to donate: the least of BOINC's three disk limits, worked out as the BOINC client
 *     works out its own (the volume's size times the percentage, the absolute limit, and free space plus what the
 *     peer already holds less the space to leave free), at least {@link #MIN_QUOTA}
 * @param minFreeBytes the space the peer always leaves free ({@code disk_min_free_gb}), which it keeps to as the
 *     disk fills
 * @param upBytesPerSec the peer's upload cap, 0 for none
 * @param downBytesPerSec the peer's download cap, 0 for none
 * @param dailyCapBytes the donor's daily cap: BOINC's transfer limit spread over its period, 0 for none
 * @param hours the donor's hours, in the settings file's {@code donor-hours} form ("" for always)
 * @param busyCpu the busy rule's CPU threshold, a fraction (1 turns it off)
 * @param busyAfter how long the owner must be away before new work, or null to leave the donor's own
 */
public record BoincLimits(long quotaBytes, long minFreeBytes, long upBytesPerSec, long downBytesPerSec, long dailyCapBytes,
    String hours, double busyCpu, Duration busyAfter) {
  /** The least quota: a peer needs a positive one; with this little it is FULL, as BOINC with no space takes no work. */
  public static final long MIN_QUOTA = 1L << 20;
  private static final double GIGA = 1e9;
  private static final double MEGA = 1e6;
  /** The threshold when BOINC may not run while the owner is active but has no CPU threshold of its own: BOINC's default. */
  private static final double ACTIVE_CPU = 0.25;

  /** The donor's volume: its size and free space, and what the peer holds on it now (BOINC counts its own use as available). */
  public record Disk(long totalBytes, long freeBytes, long heldBytes) {}

  public static BoincLimits of(BoincPrefs p, Disk disk) {
    // the free-space term moves with every file written on the volume: whole MiB, so it does not churn the quota
    double limit = Math.floor((disk.heldBytes() + (double) disk.freeBytes() - p.diskMinFreeGb() * GIGA) / MIN_QUOTA) * MIN_QUOTA;
    if (p.diskMaxUsedPct() > 0) {
      limit = Math.min(limit, disk.totalBytes() * p.diskMaxUsedPct() / 100);
    }
    if (p.diskMaxUsedGb() > 0) {
      limit = Math.min(limit, p.diskMaxUsedGb() * GIGA);
    }
    long quota = (long) Math.max(MIN_QUOTA, Math.floor(limit));
    long daily = p.dailyXferLimitMb() > 0 && p.dailyXferPeriodDays() > 0
        ? (long) Math.ceil(p.dailyXferLimitMb() * MEGA / p.dailyXferPeriodDays()) : 0;
    double cpu = p.suspendCpuUsage() > 0 ? p.suspendCpuUsage() / 100 : p.runIfUserActive() ? 1 : ACTIVE_CPU;
    Duration after = p.runIfUserActive() ? null : Duration.ofSeconds(Math.max(1, Math.round(p.idleTimeToRun() * 60)));
    return new BoincLimits(quota, (long) (p.diskMinFreeGb() * GIGA), (long) p.maxBytesSecUp(), (long) p.maxBytesSecDown(), daily,
        hours(p), Math.min(1, cpu), after);
  }

  /** BOINC's network hours as the donor's: an every-day window, then each weekday's own; 0-0 (or 0-24) is always. */
  static String hours(BoincPrefs p) {
    StringBuilder b = new StringBuilder();
    if (!always(p.netHours())) {
      b.append(window(p.netHours()));
    }
    for (Map.Entry<DayOfWeek, BoincPrefs.Hours> e : p.dayNetHours().entrySet()) {
      if (always(e.getValue()) && always(p.netHours())) {
        continue; // the same as every other day
      }
      b.append(b.length() == 0 ? "" : ", ").append(e.getKey().name().substring(0, 3).toLowerCase(Locale.ROOT)).append(' ')
          .append(window(e.getValue()));
    }
    return b.toString();
  }

  private static boolean always(BoincPrefs.Hours h) {
    return time(h.start()).equals(time(h.end()));
  }

  private static String window(BoincPrefs.Hours h) {
    return time(h.start()) + "-" + time(h.end());
  }

  /** An hour as BOINC writes it (22.5 is 22:30), to the minute; 24 is midnight. */
  private static LocalTime time(double hour) {
    long minutes = Math.round(hour * 60) % (24 * 60);
    return LocalTime.of((int) (minutes / 60), (int) (minutes % 60));
  }
}
