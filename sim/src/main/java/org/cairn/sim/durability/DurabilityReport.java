package org.cairn.sim.durability;

import java.util.Locale;

/** The study as a text table (what the command prints without --json). */
final class DurabilityReport {
  private DurabilityReport() {}

  static String text(DurabilityStudy.Result r) {
    DurabilitySettings s = r.settings();
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT,
        "%d donors (labs of 15), %d days after %d of warm-up; %d jobs storing a %.0f MB version every %d min, keeping %d;%n"
            + "uplink %.1f Mbit/s per donor, rebuild %.1f MB/s per worker, grace %d min; seed %d%n"
            + "world: %d events, %d donors left, %d disks lost (warm-up and month); history and CRLS set-up %.1f s%n%n",
        s.donors(), s.days(), s.warmupDays(), s.jobs(), s.versionMegabytes(), s.intervalMinutes(), s.keep(), s.uplinkMegabits(),
        s.rebuildMegabytesPerSecond(), s.graceMinutes(), s.seed(), r.worldEvents(), r.departures(), r.diskLosses(), r.setupSeconds()));
    b.append(String.format(Locale.ROOT, "%-12s %-9s %5s %8s %6s %10s %8s %4s %9s %12s %7s %20s %7s %5s %7s %6s%n", "scheme", "place", "store",
        "versions", "failed", "unreadable", "unread.", "lost", "min live", "repairs", "rebuilt", "repair MB/donor/day", "most", "labs", "holders", "wall"));
    b.append(String.format(Locale.ROOT, "%-12s %-9s %5s %8s %6s %10s %8s %4s %9s %12s %7s %20s %7s %5s %7s %6s%n", "", "", "", "stored", "stores",
        "versions", "hours", "", "(n, m)", "(failed)", "pieces", "mean / p99 / max", "held GB", "/vers", "(mean)", "s"));
    for (RunResult x : r.runs()) {
      b.append(String.format(Locale.ROOT, "%-12s %-9s %4.1fx %8d %6d %10d %8.1f %4d %9s %12s %7d %20s %7.1f %5.1f %7.0f %6.1f%n", x.scheme(),
          x.placement(), x.storage(), x.versionsStored(), x.storesFailed(), x.unreadable(), x.unreadableVersionHours(), x.lost(),
          x.minLive() + " (" + x.n() + ", " + x.m() + ")", x.repairsDone() + " (" + x.repairsFailed() + ")", x.piecesRebuilt(),
          String.format(Locale.ROOT, "%.0f / %.0f / %.0f", x.repairMbPerDonorDayMean(), x.repairMbPerDonorDayP99(),
              x.repairMbPerDonorDayMax()), x.mostHeldGb(), x.labsPerVersion(), x.holders(), x.wallSeconds()));
    }
    return b.toString();
  }
}
