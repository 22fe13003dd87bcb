package org.cairn.core.erasure;

/*
 * The inner loop of table-driven Reed-Solomon: outputs[o][i] = XOR_j coefficient[o][j] * inputs[j][i].
 *
 * Loop order, measured on this machine class (docs/benchmarks/journal.md): bytes are processed in blocks
 * small enough that every input and output block stays in L1/L2; within a block each output is
 * computed from up to four inputs at once, so an output byte is loaded and stored once per four
 * inputs instead of once per input, and the first group assigns rather than XORs (no zeroing pass).
 * The multiplications are lookups into rows of GaloisField.MUL; a zero coefficient skips its input
 * and a coefficient of one is a plain XOR.
 */
final class CodingLoop {
  /** Bytes per block; 6 blocks of 16 KiB (4 in + 2 out) fit the 2-core machines' L2 comfortably. */
  static final int BLOCK = 16 * 1024;

  private CodingLoop() {}

  /**
   * @param coefficients one row per output, one column per input
   * @param inputs the input shards (only the first {@code coefficients[0].length} are used)
   * @param outputs the output shards to overwrite
   */
  static void code(byte[][] coefficients, byte[][] inputs, byte[][] outputs, int outputCount, int offset, int byteCount) {
    int inputCount = coefficients[0].length;
    int end = offset + byteCount;
    for (int from = offset; from < end; from += BLOCK) {
      int to = Math.min(end, from + BLOCK);
      for (int o = 0; o < outputCount; o++) {
        byte[] row = coefficients[o];
        byte[] out = outputs[o];
        boolean assigned = false;
        int j = 0;
        while (j < inputCount) {
          int group = Math.min(4, inputCount - j);
          switch (group) {
            case 4:
              code4(row, inputs, j, out, from, to, assigned);
              break;
            case 3:
              code3(row, inputs, j, out, from, to, assigned);
              break;
            case 2:
              code2(row, inputs, j, out, from, to, assigned);
              break;
            default:
              code1(row[j], inputs[j], out, from, to, assigned);
              break;
          }
          assigned = true;
          j += group;
        }
      }
    }
  }

  private static void code4(byte[] row, byte[][] in, int j, byte[] out, int from, int to, boolean xor) {
    byte[] t0 = GaloisField.MUL[row[j] & 0xFF];
    byte[] t1 = GaloisField.MUL[row[j + 1] & 0xFF];
    byte[] t2 = GaloisField.MUL[row[j + 2] & 0xFF];
    byte[] t3 = GaloisField.MUL[row[j + 3] & 0xFF];
    byte[] a = in[j];
    byte[] b = in[j + 1];
    byte[] c = in[j + 2];
    byte[] d = in[j + 3];
    if (xor) {
      for (int i = from; i < to; i++) {
        out[i] ^= (byte) (t0[a[i] & 0xFF] ^ t1[b[i] & 0xFF] ^ t2[c[i] & 0xFF] ^ t3[d[i] & 0xFF]);
      }
    } else {
      for (int i = from; i < to; i++) {
        out[i] = (byte) (t0[a[i] & 0xFF] ^ t1[b[i] & 0xFF] ^ t2[c[i] & 0xFF] ^ t3[d[i] & 0xFF]);
      }
    }
  }

  private static void code3(byte[] row, byte[][] in, int j, byte[] out, int from, int to, boolean xor) {
    byte[] t0 = GaloisField.MUL[row[j] & 0xFF];
    byte[] t1 = GaloisField.MUL[row[j + 1] & 0xFF];
    byte[] t2 = GaloisField.MUL[row[j + 2] & 0xFF];
    byte[] a = in[j];
    byte[] b = in[j + 1];
    byte[] c = in[j + 2];
    if (xor) {
      for (int i = from; i < to; i++) {
        out[i] ^= (byte) (t0[a[i] & 0xFF] ^ t1[b[i] & 0xFF] ^ t2[c[i] & 0xFF]);
      }
    } else {
      for (int i = from; i < to; i++) {
        out[i] = (byte) (t0[a[i] & 0xFF] ^ t1[b[i] & 0xFF] ^ t2[c[i] & 0xFF]);
      }
    }
  }

  private static void code2(byte[] row, byte[][] in, int j, byte[] out, int from, int to, boolean xor) {
    byte[] t0 = GaloisField.MUL[row[j] & 0xFF];
    byte[] t1 = GaloisField.MUL[row[j + 1] & 0xFF];
    byte[] a = in[j];
    byte[] b = in[j + 1];
    if (xor) {
      for (int i = from; i < to; i++) {
        out[i] ^= (byte) (t0[a[i] & 0xFF] ^ t1[b[i] & 0xFF]);
      }
    } else {
      for (int i = from; i < to; i++) {
        out[i] = (byte) (t0[a[i] & 0xFF] ^ t1[b[i] & 0xFF]);
      }
    }
  }

  private static void code1(byte coefficient, byte[] a, byte[] out, int from, int to, boolean xor) {
    int c = coefficient & 0xFF;
    if (c == 0) {
      if (!xor) {
        java.util.Arrays.fill(out, from, to, (byte) 0);
      }
      return;
    }
    if (c == 1) {
      if (xor) {
        for (int i = from; i < to; i++) {
          out[i] ^= a[i];
        }
      } else {
        System.arraycopy(a, from, out, from, to - from);
      }
      return;
    }
    byte[] t = GaloisField.MUL[c];
    if (xor) {
      for (int i = from; i < to; i++) {
        out[i] ^= t[a[i] & 0xFF];
      }
    } else {
      for (int i = from; i < to; i++) {
        out[i] = t[a[i] & 0xFF];
      }
    }
  }
}
