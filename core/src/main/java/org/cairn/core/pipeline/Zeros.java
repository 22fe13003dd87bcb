package org.cairn.core.pipeline;

/** Whether a slice is all zeros, compared a block at a time against a shared zero block. */
final class Zeros {
  private static final byte[] BLOCK = new byte[64 << 10];

  private Zeros() {}

  static boolean all(byte[] data, int offset, int length) {
    for (int at = offset, end = offset + length; at < end; at += BLOCK.length) {
      int n = Math.min(BLOCK.length, end - at);
      if (java.util.Arrays.mismatch(data, at, at + n, BLOCK, 0, n) >= 0) {
        return false;
      }
    }
    return true;
  }
}
