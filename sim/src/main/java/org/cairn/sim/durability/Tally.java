package org.cairn.sim.durability;

import java.util.Arrays;

/** What one run counts as it goes: per version, per day and per donor-day. */
final class Tally {
  final int days;
  final int donors;
  final long monthStart;
  long stores;
  long storesFailed;
  long unreadable;
  long lost;
  long repairsDone;
  long repairsFailed;
  long piecesRebuilt;
  long repairBytes;
  int minLive = Integer.MAX_VALUE;
  /** Time kept versions spent with fewer than m live pieces, summed (ms). */
  long unreadableMillis;
  /** Distinct labs of the versions placed, summed (over {@link #stores} less {@link #storesFailed}). */
  long labsPlaced;
  /** Donors holding any piece, summed over the days' starts (and how many starts). */
  long holdersSummed;
  int holderSamples;
  /** The most bytes one donor held at any moment. */
  long mostHeld;
  int minSurplus = Integer.MAX_VALUE;
  /** The fewest live pieces beyond m any kept version had, per day. */
  final int[] minSurplusByDay;
  /** Versions that became unreadable, per day. */
  final int[] unreadableByDay;
  /** Bytes each donor sent and received for repair, per day: [day * donors + donor]. */
  final long[] repairBytesByDonorDay;

  Tally(int days, int donors, long monthStart) {
    this.days = days;
    this.donors = donors;
    this.monthStart = monthStart;
    minSurplusByDay = new int[days];
    Arrays.fill(minSurplusByDay, Integer.MAX_VALUE);
    unreadableByDay = new int[days];
    repairBytesByDonorDay = new long[days * donors];
  }

  int day(long t) {
    return (int) Math.max(0, Math.min(days - 1, (t - monthStart) / DurabilitySettings.DAY));
  }

  /** A version's live pieces now. */
  void live(Version v, long t) {
    v.minLive = Math.min(v.minLive, v.live);
    minLive = Math.min(minLive, v.live);
    int surplus = v.live - v.m;
    minSurplus = Math.min(minSurplus, surplus);
    int d = day(t);
    minSurplusByDay[d] = Math.min(minSurplusByDay[d], surplus);
    if (v.live < v.m && !v.unreadable) {
      v.unreadable = true;
      unreadable++;
      unreadableByDay[d]++;
    }
    if (v.live < v.m && v.unreadableSince < 0) {
      v.unreadableSince = t;
    } else if (v.live >= v.m && v.unreadableSince >= 0) {
      readable(v, t);
    }
  }

  /** Ends a version's unreadable spell at {@code t} (it is readable again, or deleted). */
  void readable(Version v, long t) {
    if (v.unreadableSince >= 0) {
      unreadableMillis += t - v.unreadableSince;
      v.unreadableSince = -1;
    }
  }

  void repairTraffic(int donor, long bytes, long t) {
    repairBytesByDonorDay[day(t) * donors + donor] += bytes;
    repairBytes += bytes;
  }
}
