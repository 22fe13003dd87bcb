package org.cairn.sim.durability;

import java.util.Arrays;

/**
 * What one scheme with one placement did over the month.
 *
 * @param storage bytes stored per byte of version (n / m)
 * @param unreadable versions that had fewer than m live pieces at some instant (unreadable until a holder came back)
 * @param unreadableVersionHours the time kept versions spent unreadable, summed over versions
 * @param lost versions with fewer than m pieces left anywhere: gone for good
 * @param minLive the fewest live pieces any kept version had at any instant
 * @param repairMbPerDonorDayMean repair traffic (sent + received) per donor per day, MB: the mean over donor-days
 * @param repairMbPerDonorDayP99 the same, 99th percentile over donor-days
 * @param mostHeldGb the most one donor held at any moment
 * @param holders donors holding any piece, on average over the days' starts
 * @param labsPerVersion the distinct labs (failure domains) a version's pieces were placed in, on average
 */
public record RunResult(String scheme, String placement, double storage, int m, int n, long versionsStored, long storesFailed,
    long unreadable, double unreadableVersionHours, long lost, int minLive, long repairsDone, long repairsFailed, long piecesRebuilt, double repairMbPerDonorDayMean,
    double repairMbPerDonorDayP99, double repairMbPerDonorDayMax, double mostHeldGb, double labsPerVersion, double holders, int[] minSurplusByDay, double[] repairMbMeanByDay,
    int[] unreadableByDay, long events, double wallSeconds) {

  static RunResult of(String scheme, String placement, int m, int n, Tally t, long events, double wallSeconds) {
    long[] sorted = t.repairBytesByDonorDay.clone();
    Arrays.sort(sorted);
    double[] byDay = new double[t.days];
    for (int d = 0; d < t.days; d++) {
      long sum = 0;
      for (int i = 0; i < t.donors; i++) {
        sum += t.repairBytesByDonorDay[d * t.donors + i];
      }
      byDay[d] = sum / 1e6 / t.donors;
    }
    double mean = t.repairBytes / 1e6 / sorted.length;
    double p99 = sorted[Math.min(sorted.length - 1, (int) Math.ceil(0.99 * sorted.length) - 1)] / 1e6;
    return new RunResult(scheme, placement, (double) n / m, m, n, t.stores - t.storesFailed, t.storesFailed, t.unreadable,
        t.unreadableMillis / 3.6e6, t.lost,
        t.minLive == Integer.MAX_VALUE ? n : t.minLive, t.repairsDone, t.repairsFailed, t.piecesRebuilt, mean, p99,
        sorted[sorted.length - 1] / 1e6, t.mostHeld / 1e9,
        t.stores > t.storesFailed ? (double) t.labsPlaced / (t.stores - t.storesFailed) : 0,
        t.holderSamples == 0 ? 0 : (double) t.holdersSummed / t.holderSamples, t.minSurplusByDay.clone(), byDay, t.unreadableByDay.clone(), events, wallSeconds);
  }

  /** The label of the run in tables and plots. */
  public String label() {
    return scheme + " " + placement;
  }
}
