package org.cairn.sim.durability;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.availability.Availability;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.StateSeries;

/**
 * The availability history a tracker would have recorded (core/availability's slotted series: one state per donor per
 * slot, sampled at the slot's middle), built once from the world's events, and the CRLS scores placement ranks donors
 * by, computed with core's {@link Crls} over the window before the moment asked (never a slot after it), as
 * tracker/placement/PlacementService does. A compute host's series is its donor's: UP while RUNNING, down (its guest
 * job evicted) while BUSY or DOWN.
 *
 * <p>Scores are cached per compute host for {@code refreshMillis} (the tracker's cache is 10 s of real time; a month
 * at that refresh is out of reach, and the history moves little in a day). The cache is shared by the runs compared:
 * the history is the same for each, so the scores are too.
 */
final class SlotHistory {
  /** CRLS of every donor against one compute host, and the compute host's MTTF, at one refresh. */
  record Scores(double[] crls, double mttfSeconds, int[] byCrls) {}

  private final byte[][] storage;
  private final long slotMillis;
  private final int windowSlots;
  private final long refreshMillis;
  private final Crls crls = Crls.defaults();
  private final Map<Integer, byte[]> compute = new ConcurrentHashMap<>();
  private final Map<Long, Scores> scores = new ConcurrentHashMap<>();
  private final int[][] upByHour;
  /** Donors' ids (random, as a peer's peer-<8 hex>: not in lab order), their rank in id order, and donors by id. */
  private final String[] ids;
  private final int[] idRank;
  private final int[] byId;
  private final Map<String, Integer> donorById = new java.util.HashMap<>();

  SlotHistory(WorldEvents world, long slotMillis, long windowMillis, long refreshMillis) {
    this.slotMillis = slotMillis;
    this.windowSlots = (int) Math.max(1, windowMillis / slotMillis);
    this.refreshMillis = refreshMillis;
    int slots = (int) (world.horizon() / slotMillis);
    storage = new byte[world.donors()][slots];
    Donors donors = new Donors(world.donors(), world.labSize());
    int next = 0;
    for (int s = 0; s < slots; s++) {
      long sample = s * slotMillis + slotMillis / 2;
      while (next < world.size() && world.time(next) < sample) {
        donors.apply(world, next++, Donors.NONE);
      }
      for (int d = 0; d < storage.length; d++) {
        storage[d][s] = (byte) donors.state(d).code();
      }
    }
    upByHour = countByHour(slots);
    ids = new String[storage.length];
    java.util.SplittableRandom r = new java.util.SplittableRandom(world.idSeed());
    for (int d = 0; d < ids.length; d++) {
      String id;
      do {
        id = String.format("peer-%08x", r.nextInt());
      } while (donorById.putIfAbsent(id, d) != null);
      ids[d] = id;
    }
    Integer[] order = new Integer[ids.length];
    for (int d = 0; d < order.length; d++) {
      order[d] = d;
    }
    java.util.Arrays.sort(order, java.util.Comparator.comparing(d -> ids[d]));
    byId = java.util.Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    idRank = new int[ids.length];
    for (int i = 0; i < byId.length; i++) {
      idRank[byId[i]] = i;
    }
  }

  String id(int donor) {
    return ids[donor];
  }

  int donor(String id) {
    Integer d = donorById.get(id);
    if (d == null) {
      throw new IllegalArgumentException("placement named an unknown donor '" + id + "'");
    }
    return d;
  }

  /** Donor numbers in id order (FALCON's tie-break). */
  int[] byId() {
    return byId;
  }

  /** Per hour of the horizon: donors RUNNING, BUSY and DOWN in the hour's first slot. */
  private int[][] countByHour(int slots) {
    int perHour = (int) Math.max(1, 3_600_000L / slotMillis);
    int hours = slots / perHour;
    int[][] out = new int[3][hours];
    for (int h = 0; h < hours; h++) {
      for (byte[] series : storage) {
        byte c = series[h * perHour];
        out[c == 0 ? 0 : c == 4 ? 2 : 1][h]++;
      }
    }
    return out;
  }

  /** Donors RUNNING ([0]), BUSY ([1]) and DOWN ([2]) at each hour of the horizon. */
  int[][] byHour() {
    return upByHour;
  }

  /** The scores against compute host {@code host} placement sees at {@code at}. */
  Scores scores(int host, long at) {
    long epoch = at / refreshMillis;
    return scores.computeIfAbsent(epoch * WorldEvents.MAX_DONORS + host, k -> compute(host, epoch * refreshMillis));
  }

  private Scores compute(int host, long at) {
    long to = Math.min(at / slotMillis, storage[0].length);
    long from = Math.max(0, to - windowSlots);
    StateSeries cs = new StateSeries(0, compute.computeIfAbsent(host, this::computeSeries));
    double[] values = new double[storage.length];
    for (int d = 0; d < storage.length; d++) {
      values[d] = crls.score(new StateSeries(0, storage[d]), cs, from, to);
    }
    double mttf = Availability.mttfSlots(cs, from, to) * slotMillis / 1000.0;
    return new Scores(values, mttf > 0 ? mttf : 3600, byCrls(values, idRank));
  }

  /** Donor numbers in FALCON's CRLS order: descending, ties by id ({@code idRank}: each donor's rank in id order). */
  static int[] byCrls(double[] values, int[] idRank) {
    Integer[] order = new Integer[values.length];
    for (int d = 0; d < order.length; d++) {
      order[d] = d;
    }
    java.util.Arrays.sort(order, (a, b) -> values[a] != values[b] ? Double.compare(values[b], values[a])
        : Integer.compare(idRank[a], idRank[b]));
    return java.util.Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  private byte[] computeSeries(int host) {
    byte[] s = new byte[storage[host].length];
    for (int i = 0; i < s.length; i++) {
      s[i] = storage[host][i] == 0 ? StateSeries.UP : StateSeries.COMPUTE_DOWN;
    }
    return s;
  }
}
