package org.cairn.client.bases;

/**
 * Where a base cache's records are, keyed by the first 64 bits of their chunk id: an open-addressing table of
 * primitives (pack number, offset, length per slot), so indexing a cache at its budget (~37,000 records in ~200 packs)
 * makes no object per record. A new JVM built a {@code ConcurrentHashMap} of ids and locations for that in 110-170 ms
 * of interpreted code on every one-command store (docs/benchmarks/journal.md). Two ids that share their first 64 bits (about
 * one chance in 10^10 in a full cache) share a slot: the first one indexed keeps it, and a read of the other finds the
 * record's own id wrong, a miss, never a wrong base. Thread-safe.
 */
final class RecordSlots {
  /** A slot's place in its pack, as {@link #find} gives it. */
  record Place(int pack, long offset, int length) {}

  private static final int EMPTY = 0;
  private static final int REMOVED = -1;
  /** Offsets and lengths each fit in 31 bits (packs stop growing at 64 MiB plus one record of at most 256 MiB). */
  private static final long MAX = Integer.MAX_VALUE;

  private long[] keys;
  /** The pack number + 1 (0: empty, -1: removed). */
  private int[] packs;
  /** offset << 32 | length. */
  private long[] places;
  private int live;
  private int taken; // live and removed slots

  /** @param expected records expected (the table starts at twice that, a power of two) */
  RecordSlots(int expected) {
    int n = Integer.highestOneBit(Math.max(16, expected) * 2 - 1) << 1;
    keys = new long[n];
    packs = new int[n];
    places = new long[n];
  }

  /** Records indexed. */
  synchronized int size() {
    return live;
  }

  /** Indexes a record unless one with the same key is indexed already (the first indexed stays); false if it was. */
  synchronized boolean putIfAbsent(long key, int pack, long offset, int length) {
    if (pack < 0 || offset < 0 || offset > MAX || length < 0) {
      throw new IllegalArgumentException("no place for pack " + pack + " at " + offset + " (" + length + " bytes)");
    }
    if ((taken + 1) * 2L > keys.length) {
      rehash(live + 1 > keys.length / 4 ? keys.length * 2 : keys.length);
    }
    int mask = keys.length - 1;
    int free = -1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      int p = packs[i];
      if (p == EMPTY) {
        if (free < 0) {
          free = i;
          taken++;
        }
        break;
      }
      if (p == REMOVED) {
        if (free < 0) {
          free = i;
        }
      } else if (keys[i] == key) {
        return false;
      }
    }
    keys[free] = key;
    packs[free] = pack + 1;
    places[free] = offset << 32 | length;
    live++;
    return true;
  }

  /** The place indexed under {@code key}, or null. */
  synchronized Place find(long key) {
    int i = indexOf(key);
    return i < 0 ? null : new Place(packs[i] - 1, places[i] >>> 32, (int) places[i]);
  }

  /** Forgets the record under {@code key} if it is the one at {@code pack}/{@code offset}. */
  synchronized void remove(long key, int pack, long offset) {
    int i = indexOf(key);
    if (i >= 0 && packs[i] == pack + 1 && places[i] >>> 32 == offset) {
      packs[i] = REMOVED;
      live--;
    }
  }

  /** Forgets every record of pack {@code pack}. */
  synchronized void removePack(int pack) {
    for (int i = 0; i < packs.length; i++) {
      if (packs[i] == pack + 1) {
        packs[i] = REMOVED;
        live--;
      }
    }
  }

  private int indexOf(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      int p = packs[i];
      if (p == EMPTY) {
        return -1;
      }
      if (p != REMOVED && keys[i] == key) {
        return i;
      }
    }
  }

  /** The first slot of {@code key} in a table of {@code mask} + 1 slots (its 64 bits mixed: some ids start with a tag). */
  static int slot(long key, int mask) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
  }

  private void rehash(int n) {
    long[] oldKeys = keys;
    int[] oldPacks = packs;
    long[] oldPlaces = places;
    keys = new long[n];
    packs = new int[n];
    places = new long[n];
    live = 0;
    taken = 0;
    int mask = n - 1;
    for (int j = 0; j < oldKeys.length; j++) {
      if (oldPacks[j] > 0) {
        int i = slot(oldKeys[j], mask);
        while (packs[i] != EMPTY) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[j];
        packs[i] = oldPacks[j];
        places[i] = oldPlaces[j];
        live++;
        taken++;
      }
    }
  }
}
