package org.cairn.core.erasure;

import org.cairn.core.CorruptDataException;

/** Checks shared by the codecs' decode paths. */
final class Fragments {
  private Fragments() {}

  /** Counts present fragments and checks their sizes; throws if fewer than m are present. */
  static boolean[] present(byte[][] fragments, int n, int m, int size, String spec) throws CorruptDataException {
    if (fragments.length != n) {
      throw new IllegalArgumentException(spec + ": expected " + n + " fragment slots, got " + fragments.length);
    }
    boolean[] present = new boolean[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (fragments[i] != null) {
        if (fragments[i].length != size) {
          throw new CorruptDataException(
              spec + ": fragment " + i + " has " + fragments[i].length + " bytes, expected " + size);
        }
        present[i] = true;
        count++;
      }
    }
    if (count < m) {
      throw new CorruptDataException(spec + ": need " + m + " of " + n + " fragments, have " + count);
    }
    return present;
  }

  /**
   * Sets shards[0..m-1] to new arrays of {@code size} bytes holding {@code payload[offset, offset+length)},
   * zero-padded. Full shards come from {@code Arrays.copyOfRange}, which C2 allocates without zeroing.
   */
  static void split(byte[] payload, int offset, int length, byte[][] shards, int m, int size) {
    for (int i = 0; i < m; i++) {
      int from = offset + i * size;
      int n = Math.max(0, Math.min(size, length - i * size));
      if (n == size) {
        shards[i] = java.util.Arrays.copyOfRange(payload, from, from + size);
      } else {
        shards[i] = new byte[size];
        if (n > 0) {
          System.arraycopy(payload, from, shards[i], 0, n);
        }
      }
    }
  }

  /** Concatenates the first m shards into {@code out}, dropping the padding. */
  static void join(byte[][] shards, int m, int size, byte[] out) {
    for (int i = 0; i < m; i++) {
      int n = Math.min(size, out.length - i * size);
      if (n <= 0) {
        break;
      }
      System.arraycopy(shards[i], 0, out, i * size, n);
    }
  }
}
