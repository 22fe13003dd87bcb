package org.cairn.sim.durability;

import java.util.List;

/**
 * One durability study: the grid, the month, the version stream, the links and the repair policy's timings, and the
 * codings and placements compared. Validated here, so a bad value is a one-line error naming it.
 *
 * @param donors donors in the grid (labs of the churn model's size)
 * @param days the month simulated (after {@code warmupDays} of history with no versions, so CRLS has a window)
 * @param jobs jobs checkpointing, each on its own compute host (a donor)
 * @param intervalMinutes how often each job stores a version
 * @param versionMegabytes a version's size as stored (compressed; every version stored whole: no dedup)
 * @param keep versions each job keeps (older ones are deleted as a new one commits)
 * @param quotaGigabytes what each donor gives
 * @param uplinkMegabits a donor's upload rate, which every piece it sends for repair passes
 * @param rebuildMegabytesPerSecond the rate one repair worker rebuilds at (measured: docs/performance.md)
 * @param graceMinutes how long a holder may be DOWN before its pieces are rebuilt elsewhere (the tracker's default)
 * @param scanSeconds how often the repair queue is rebuilt and jobs are started
 * @param slotMinutes the availability history's slot
 * @param windowDays the history window CRLS is computed over
 * @param refreshHours how long a compute host's scores are reused
 */
public record DurabilitySettings(int donors, int days, int warmupDays, int jobs, int intervalMinutes, double versionMegabytes,
    int keep, double quotaGigabytes, double uplinkMegabits, double rebuildMegabytesPerSecond, int graceMinutes, int scanSeconds,
    int slotMinutes, int windowDays, int refreshHours, List<String> schemes, List<String> placements, long seed) {

  static final long MINUTE = 60_000L;
  static final long DAY = 86_400_000L;

  public DurabilitySettings {
    require(donors >= 10 && donors <= WorldEvents.MAX_DONORS, "--donors must be between 10 and " + WorldEvents.MAX_DONORS);
    require(days >= 1 && days <= 365, "--days must be between 1 and 365");
    require(warmupDays >= 0 && warmupDays <= 60, "--warmup-days must be between 0 and 60");
    require(jobs >= 1 && jobs < donors, "--jobs must be at least 1 and fewer than the donors");
    require(intervalMinutes >= 1, "--interval must be at least 1 minute");
    require(versionMegabytes > 0 && versionMegabytes <= 1e6, "--version-mb must be positive (and at most 1e6)");
    require(keep >= 1, "--keep must be at least 1");
    require(quotaGigabytes > 0, "--quota-gb must be positive");
    require(uplinkMegabits > 0, "--uplink-mbit must be positive");
    require(rebuildMegabytesPerSecond > 0, "--rebuild-mbps must be positive");
    require(graceMinutes >= 0, "--grace must be >= 0 minutes");
    require(scanSeconds >= 1, "--scan must be at least 1 second");
    require(slotMinutes >= 1 && slotMinutes <= 60, "--slot must be between 1 and 60 minutes");
    require(windowDays >= 1, "--window must be at least 1 day");
    require(refreshHours >= 1, "--refresh must be at least 1 hour");
    require(!schemes.isEmpty() && !placements.isEmpty(), "--schemes and --placements must name at least one each");
    for (String p : placements) {
      Policies.cap(p); // names the bad spec and what is accepted
    }
    for (String scheme : schemes) {
      org.cairn.core.erasure.Redundancy.parse(scheme); // names the bad spec and what is accepted
    }
    schemes = List.copyOf(schemes);
    placements = List.copyOf(placements);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  long monthStart() {
    return warmupDays * DAY;
  }

  long horizon() {
    return (warmupDays + days) * DAY;
  }

  long versionBytes() {
    return (long) (versionMegabytes * 1e6);
  }

  long quotaBytes() {
    return (long) (quotaGigabytes * 1e9);
  }

  /** Bytes per second. */
  double uplink() {
    return uplinkMegabits * 1e6 / 8;
  }

  /** Bytes per second. */
  double rebuildRate() {
    return rebuildMegabytesPerSecond * 1e6;
  }
}
