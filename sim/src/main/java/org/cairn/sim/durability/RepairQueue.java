package org.cairn.sim.durability;

import java.util.Comparator;
import java.util.List;

/**
 * The repair queue's order, tracker/repair/IndexWalk's: fewest live pieces beyond m first, then each job's latest
 * version before older ones (then by version, so the order is total).
 */
final class RepairQueue {
  private RepairQueue() {}

  /** A version that needs and may have repair: {@code surplus} live pieces beyond m, {@code missing} pieces due. */
  record Pending(int version, int surplus, boolean latest, int[] missing) {}

  static final Comparator<Pending> ORDER = Comparator.comparingInt(Pending::surplus).thenComparing(p -> !p.latest())
      .thenComparingInt(Pending::version);

  static void sort(List<Pending> queue) {
    queue.sort(ORDER);
  }
}
