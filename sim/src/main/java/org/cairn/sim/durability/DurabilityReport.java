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
    b.append(String.format(Locale.ROOT, "%-14s %-9s %7s %9s %7s %10s %5s %9s %9s %8s %22s %7s%n", "scheme", "placement", "storage",
        "versions", "failed", "unreadable", "lost", "min live", "repairs", "rebuilt", "repair MB/donor/day", "wall"));
    b.append(String.format(Locale.ROOT, "%-14s %-9s %7s %9s %7s %10s %5s %9s %9s %8s %22s %7s%n", "", "", "", "stored", "stores",
        "(at once)", "", "(of n, m)", "done", "pieces", "mean / p99 / max", "s"));
    for (RunResult x : r.runs()) {
      b.append(String.format(Locale.ROOT, "%-14s %-9s %6.1fx %9d %7d %10d %5d %9s %9d %8d %22s %7.1f%n", x.scheme(), x.placement(),
          x.storage(), x.versionsStored(), x.storesFailed(), x.unreadable(), x.lost(), x.minLive() + " (" + x.n() + ", " + x.m() + ")",
          x.repairsDone(), x.piecesRebuilt(), String.format(Locale.ROOT, "%.0f / %.0f / %.0f", x.repairMbPerDonorDayMean(),
              x.repairMbPerDonorDayP99(), x.repairMbPerDonorDayMax()), x.wallSeconds()));
    }
    return b.toString();
  }
}
