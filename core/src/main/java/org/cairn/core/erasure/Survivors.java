package org.cairn.core.erasure;

/**
 * What a decode starts from: the first m present shards of a stripe and the numbers of the
 * generator rows that made them (the m x m matrix a decode inverts). Shared by both codes'
 * {@code reconstruct}, which differ only in how they apply the inverse.
 */
record Survivors(int[] rows, byte[][] shards) {

  /**
   * The first {@code dataShards} present shards, or null when every shard is present (nothing to
   * rebuild).
   *
   * @throws IllegalArgumentException if {@code present} has the wrong length or fewer than
   *     {@code dataShards} shards are present
   */
  static Survivors pick(byte[][] shards, boolean[] present, int dataShards) {
    if (present.length != shards.length) {
      throw new IllegalArgumentException("expected " + shards.length + " presence flags, got " + present.length);
    }
    int count = 0;
    for (boolean p : present) {
      count += p ? 1 : 0;
    }
    if (count == shards.length) {
      return null;
    }
    if (count < dataShards) {
      throw new IllegalArgumentException(
          "need at least " + dataShards + " of " + shards.length + " shards to reconstruct, have " + count);
    }
    int[] rows = new int[dataShards];
    byte[][] held = new byte[dataShards][];
    for (int i = 0, v = 0; v < dataShards; i++) {
      if (present[i]) {
        rows[v] = i;
        held[v] = shards[i];
        v++;
      }
    }
    return new Survivors(rows, held);
  }
}
