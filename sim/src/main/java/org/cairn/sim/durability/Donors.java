package org.cairn.sim.durability;

import org.cairn.core.availability.HostState;

/**
 * The donors' state as the world's events leave it: up unless their lab is out or they are wiped, BUSY while their
 * owner is active (FALCON's S2: serves reads, takes no writes), and the generation of their disk (a wipe starts a new
 * one, so a piece written before it is gone).
 */
final class Donors {
  /** What a change of a donor's reachability means to the pieces it holds. */
  interface Listener {
    void wentDown(int donor, long at);

    void cameUp(int donor, long at);

    /** The donor's pieces are gone (it is down too; {@link #wentDown} was called first if it was up). */
    void wiped(int donor, long at);
  }

  static final Listener NONE = new Listener() {
    @Override
    public void wentDown(int donor, long at) {}

    @Override
    public void cameUp(int donor, long at) {}

    @Override
    public void wiped(int donor, long at) {}
  };

  private final int labSize;
  private final int[] owner;
  private final int[] labDown;
  private final boolean[] wiped;
  private final int[] generation;
  private final long[] downSince;
  private final long[] wipedAt;
  private int up;

  Donors(int donors, int labSize) {
    this.labSize = labSize;
    owner = new int[donors];
    labDown = new int[(donors + labSize - 1) / labSize];
    wiped = new boolean[donors];
    generation = new int[donors];
    downSince = new long[donors];
    wipedAt = new long[donors];
    up = donors;
  }

  int count() {
    return owner.length;
  }

  boolean up(int d) {
    return labDown[d / labSize] == 0 && !wiped[d];
  }

  /** Up and its owner away: takes writes and repair work. */
  boolean running(int d) {
    return up(d) && owner[d] == 0;
  }

  int upCount() {
    return up;
  }

  int generation(int d) {
    return generation[d];
  }

  /** When the donor last went down (meaningful while it is down). */
  long downSince(int d) {
    return downSince[d];
  }

  /** When the donor was last wiped. */
  long wipedAt(int d) {
    return wipedAt[d];
  }

  /** The state a tracker's history records for the donor now. */
  HostState state(int d) {
    return !up(d) ? HostState.DOWN : owner[d] > 0 ? HostState.BUSY : HostState.RUNNING;
  }

  /** Applies event {@code i}, telling {@code l} whose reachability changed. */
  void apply(WorldEvents w, int i, Listener l) {
    int s = w.subject(i);
    long t = w.time(i);
    switch (w.kind(i)) {
      case WorldEvents.OWNER_START -> owner[s]++;
      case WorldEvents.OWNER_END -> owner[s] = Math.max(0, owner[s] - 1);
      case WorldEvents.OUTAGE_START -> {
        if (labDown[s]++ == 0) {
          forLab(s, d -> {
            if (!wiped[d]) {
              down(d, t, l);
            }
          });
        }
      }
      case WorldEvents.OUTAGE_END -> {
        if (--labDown[s] == 0) {
          forLab(s, d -> {
            if (!wiped[d]) {
              up++;
              l.cameUp(d, t);
            }
          });
        }
      }
      case WorldEvents.WIPE -> {
        if (up(s)) {
          down(s, t, l);
        }
        wiped[s] = true;
        generation[s]++;
        wipedAt[s] = t;
        l.wiped(s, t);
      }
      case WorldEvents.RETURN -> {
        wiped[s] = false;
        if (labDown[s / labSize] == 0) {
          up++;
          l.cameUp(s, t);
        }
      }
      default -> throw new IllegalStateException("unknown event kind " + w.kind(i));
    }
  }

  private void down(int d, long t, Listener l) {
    up--;
    downSince[d] = t;
    l.wentDown(d, t);
  }

  private void forLab(int lab, java.util.function.IntConsumer action) {
    for (int d = lab * labSize; d < Math.min(owner.length, (lab + 1) * labSize); d++) {
      action.accept(d);
    }
  }
}
