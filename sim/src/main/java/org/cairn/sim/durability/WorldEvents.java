package org.cairn.sim.durability;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.cairn.sim.churn.ChurnModel;
import org.cairn.sim.churn.ChurnParameters;

/**
 * Everything that happens to the donors over a run, drawn once from a seed and shared by every scheme compared (the
 * same churn for each): owners' sessions and lab outages from {@link ChurnModel}, wipes and returns from
 * {@link LongTermParameters}. Sorted by time, then kind, then subject; each event packed in one long.
 */
public final class WorldEvents {
  /** An owner starts using the donor (subject: donor). */
  public static final int OWNER_START = 0;
  public static final int OWNER_END = 1;
  /** A lab loses power or network (subject: lab). */
  public static final int OUTAGE_START = 2;
  public static final int OUTAGE_END = 3;
  /** The donor's pieces are gone for good and it is down (subject: donor). */
  public static final int WIPE = 4;
  /** A wiped donor is back, empty (subject: donor). */
  public static final int RETURN = 5;

  private static final int SUBJECT_BITS = 20;
  private static final int KIND_BITS = 3;
  /** The most donors a run may have (the subject's bits). */
  public static final int MAX_DONORS = 1 << SUBJECT_BITS;

  private final long[] packed;
  private final int donors;
  private final int labSize;
  private final long horizon;
  private final long departures;
  private final long diskLosses;
  private long idSeed;

  private WorldEvents(long[] packed, int donors, int labSize, long horizon, long departures, long diskLosses) {
    this.packed = packed;
    this.donors = donors;
    this.labSize = labSize;
    this.horizon = horizon;
    this.departures = departures;
    this.diskLosses = diskLosses;
  }

  /** Draws the events of {@code donors} donors over [0, horizonMillis). */
  public static WorldEvents draw(ChurnParameters churn, LongTermParameters longTerm, int donors, long horizonMillis, long seed) {
    if (donors < 1 || donors > MAX_DONORS) {
      throw new IllegalArgumentException("donors must be between 1 and " + MAX_DONORS + ", was " + donors);
    }
    SplittableRandom root = new SplittableRandom(seed);
    ChurnModel model = new ChurnModel(churn, donors, horizonMillis, root.nextLong());
    LongArray out = new LongArray();
    for (int d = 0; d < donors; d++) {
      addIntervals(out, model.ownerSessions(d), OWNER_START, d, horizonMillis);
    }
    for (int l = 0; l < model.labs(donors); l++) {
      addIntervals(out, model.outages(l), OUTAGE_START, l, horizonMillis);
    }
    long[] kinds = new long[2];
    for (int d = 0; d < donors; d++) {
      wipes(out, root.split(), longTerm, d, horizonMillis, kinds);
    }
    long[] packed = out.toArray();
    Arrays.sort(packed);
    WorldEvents w = new WorldEvents(packed, donors, churn.labSize(), horizonMillis, kinds[0], kinds[1]);
    w.idSeed = root.nextLong();
    return w;
  }

  /** Given events (for tests): {@code events} are (time, kind, subject) triples. */
  static WorldEvents of(int donors, int labSize, long horizon, long... events) {
    long[] packed = new long[events.length / 3];
    for (int i = 0; i < packed.length; i++) {
      packed[i] = pack(events[3 * i], (int) events[3 * i + 1], (int) events[3 * i + 2]);
    }
    Arrays.sort(packed);
    return new WorldEvents(packed, donors, labSize, horizon, 0, 0);
  }

  private static void addIntervals(LongArray out, long[] bounds, int startKind, int subject, long horizon) {
    for (int i = 0; i < bounds.length; i += 2) {
      out.add(pack(bounds[i], startKind, subject));
      if (bounds[i + 1] < horizon) {
        out.add(pack(bounds[i + 1], startKind + 1, subject));
      }
    }
  }

  private static void wipes(LongArray out, SplittableRandom r, LongTermParameters p, int donor, long horizon, long[] kinds) {
    double perMilli = p.wipesPerDay() / DAY;
    double t = exponential(r, 1 / perMilli);
    while (t < horizon) {
      boolean departure = r.nextDouble() < p.departureShare();
      kinds[departure ? 0 : 1]++;
      out.add(pack((long) t, WIPE, donor));
      double back = t + Math.max(1, exponential(r, (departure ? p.replacementDaysMean() : p.diskRepairDaysMean()) * DAY));
      if (back >= horizon) {
        return;
      }
      out.add(pack((long) back, RETURN, donor));
      t = back + exponential(r, 1 / perMilli);
    }
  }

  static final long DAY = 86_400_000L;

  static long pack(long time, int kind, int subject) {
    return (time << (KIND_BITS + SUBJECT_BITS)) | ((long) kind << SUBJECT_BITS) | subject;
  }

  private static double exponential(SplittableRandom r, double mean) {
    return -mean * Math.log(1 - r.nextDouble());
  }

  public int size() {
    return packed.length;
  }

  public long time(int i) {
    return packed[i] >>> (KIND_BITS + SUBJECT_BITS);
  }

  public int kind(int i) {
    return (int) (packed[i] >>> SUBJECT_BITS) & ((1 << KIND_BITS) - 1);
  }

  public int subject(int i) {
    return (int) packed[i] & (MAX_DONORS - 1);
  }

  /** The seed of the donors' ids. */
  long idSeed() {
    return idSeed;
  }

  public int donors() {
    return donors;
  }

  public int labSize() {
    return labSize;
  }

  public long horizon() {
    return horizon;
  }

  /** Donors that left over the horizon. */
  public long departures() {
    return departures;
  }

  /** Disks lost over the horizon. */
  public long diskLosses() {
    return diskLosses;
  }

  /** A growable array of longs. */
  private static final class LongArray {
    private long[] a = new long[1024];
    private int n;

    void add(long v) {
      if (n == a.length) {
        a = Arrays.copyOf(a, 2 * n);
      }
      a[n++] = v;
    }

    long[] toArray() {
      return Arrays.copyOf(a, n);
    }
  }
}
