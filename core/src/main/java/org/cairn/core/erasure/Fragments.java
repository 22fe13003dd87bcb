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

  /** Copies {@code payload[offset, offset+length)} into the first m shards of {@code size} bytes (zero padding after). */
  static void split(byte[] payload, int offset, int length, byte[][] shards, int m, int size) {
    for (int i = 0; i < m; i++) {
      int n = Math.min(size, length - i * size);
      if (n <= 0) {
        break;
      }
      System.arraycopy(payload, offset + i * size, shards[i], 0, n);
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
