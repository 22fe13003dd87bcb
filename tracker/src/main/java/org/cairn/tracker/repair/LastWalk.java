package org.cairn.tracker.repair;

import java.util.Map;

/**
 * What the repair scan's last walk of the chunk index read, and whether a later scan may stand on it
 * instead of walking again ({@link RepairService}): the catalog's changes other than foldable commits,
 * which peers were DOWN, when it walked, the last commit it (or a fold since) took in, and whether a
 * commit landed while it ran (that commit may or may not be in its counts, so the next scan walks).
 */
final class LastWalk {
  private final long maxAgeMillis;
  private boolean done;
  private long changes;
  private Map<String, Boolean> down = Map.of();
  private long at;
  private long seq;
  private boolean straddled;
  private volatile long walks; // read by metrics scrapes without the scan's lock
  private volatile long folds;

  /** A walk stands for at most {@code maxAgeMillis}. */
  LastWalk(long maxAgeMillis) {
    this.maxAgeMillis = maxAgeMillis;
  }

  /** The last commit taken in: a scan folds the ones after it. */
  long seq() {
    return seq;
  }

  /**
   * Why the walk no longer stands at {@code now} (for the log), or null if it does: it stands while its
   * result was healthy with no repair queued or running ({@code healthyAndIdle}), the catalog's other
   * changes are {@code changes} as then, the DOWN set is the same, no commit straddled it, and it is
   * younger than the maximum age.
   */
  String whyNot(boolean healthyAndIdle, long changes, Map<String, Boolean> down, long now) {
    if (!done) {
      return "no walk yet";
    } else if (!healthyAndIdle) {
      return "the last walk found chunks to repair, or repairs are queued or running";
    } else if (straddled) {
      return "a commit landed while the last walk ran";
    } else if (changes != this.changes) {
      return (changes - this.changes) + " version or chunk records written other than by commits of new chunks";
    } else if (!down.equals(this.down)) {
      return "a peer went DOWN or came back";
    } else if (now - at >= maxAgeMillis) {
      return "the last walk is " + (now - at) / 1000 + " s old";
    }
    return null;
  }

  /** A walk finished that read {@code changes}, {@code down} and commits up to {@code seq}; {@code seqAfter}: the last commit once it ended. */
  void walked(long changes, Map<String, Boolean> down, long now, long seq, long seqAfter) {
    this.done = true;
    this.changes = changes;
    this.down = down;
    this.at = now;
    this.seq = seq;
    this.straddled = seqAfter != seq;
    walks++;
  }

  /** The commits up to {@code seq} were folded in ({@code any}: there were some). */
  void folded(long seq, boolean any) {
    this.seq = seq;
    folds += any ? 1 : 0;
  }

  long walks() {
    return walks;
  }

  long folds() {
    return folds;
  }
}
