package org.cairn.core.erasure;

/*
 * Arithmetic in GF(2^8) with the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D) and
 * generator 2 — the field of JavaReedSolomon, klauspost/reedsolomon and reed-solomon-erasure, so
 * our fragments are byte-compatible with theirs (checked against shared/vectors/rs).
 *
 * Multiplication goes through a full 256 x 256 product table: the coding loops look rows of it up
 * directly (MUL[c] is "multiply by c"), which is what makes a pure-Java codec fast.
 */
final class GaloisField {
  static final int POLYNOMIAL = 0x11D;

  /** EXP[i] = 2^i, doubled in length so EXP[LOG[a] + LOG[b]] needs no modulo. */
  private static final int[] EXP = new int[510];
  private static final int[] LOG = new int[256];
  /** MUL[a][b] = a * b. */
  static final byte[][] MUL = new byte[256][256];

  static {
    int x = 1;
    for (int i = 0; i < 255; i++) {
      EXP[i] = x;
      EXP[i + 255] = x;
      LOG[x] = i;
      x <<= 1;
      if (x >= 256) {
        x ^= POLYNOMIAL;
      }
    }
    for (int a = 0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        MUL[a][b] = (byte) slowMultiply(a, b);
      }
    }
  }

  private GaloisField() {}

  private static int slowMultiply(int a, int b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    return EXP[LOG[a] + LOG[b]];
  }

  static int add(int a, int b) {
    return a ^ b;
  }

  static int multiply(int a, int b) {
    return MUL[a & 0xFF][b & 0xFF] & 0xFF;
  }

  static int divide(int a, int b) {
    if (b == 0) {
      throw new ArithmeticException("division by zero in GF(2^8)");
    }
    if (a == 0) {
      return 0;
    }
    return EXP[LOG[a] - LOG[b] + 255];
  }

  /** a^n, with 0^0 = 1 as the Vandermonde construction needs. */
  static int power(int a, int n) {
    if (n == 0) {
      return 1;
    }
    if (a == 0) {
      return 0;
    }
    return EXP[(LOG[a] * n) % 255];
  }

  static int inverse(int a) {
    return divide(1, a);
  }
}
