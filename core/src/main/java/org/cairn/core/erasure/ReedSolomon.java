package org.cairn.core.erasure;

import java.util.Objects;

/*
 * Systematic Reed-Solomon over GF(2^8) (polynomial 0x11D), the construction of JavaReedSolomon,
 * klauspost/reedsolomon and reed-solomon-erasure: take the (m+k) x m Vandermonde matrix with rows
 * r^c, multiply it by the inverse of its top m x m square so the top becomes the identity; data
 * shards pass through unchanged and parity shard p is row m+p of that matrix applied to the data.
 * Any m of the m+k shards determine the rest: invert the m x m matrix of the rows we hold.
 *
 * Parameters: m data shards, k parity shards, m >= 1, k >= 1, m + k <= 256. Shards are equal-sized
 * byte arrays; callers pad. Thread-safe: the instance holds only immutable matrices.
 */
public final class ReedSolomon {
  private final int dataShards;
  private final int parityShards;
  private final Matrix matrix;
  private final byte[][] parityRows;

  public ReedSolomon(int dataShards, int parityShards) {
    StripedRedundancy.checkCode(dataShards, parityShards);
    this.dataShards = dataShards;
    this.parityShards = parityShards;
    Matrix vandermonde = Matrix.vandermonde(dataShards + parityShards, dataShards);
    Matrix top = vandermonde.subMatrix(0, 0, dataShards, dataShards);
    this.matrix = vandermonde.times(top.invert());
    this.parityRows = new byte[parityShards][];
    for (int p = 0; p < parityShards; p++) {
      parityRows[p] = matrix.row(dataShards + p);
    }
  }

  public int dataShards() {
    return dataShards;
  }

  public int parityShards() {
    return parityShards;
  }

  public int totalShards() {
    return dataShards + parityShards;
  }

  /** Computes shards[m..m+k-1] from shards[0..m-1] over bytes [offset, offset + byteCount). */
  public void encodeParity(byte[][] shards, int offset, int byteCount) {
    checkShards(shards, offset, byteCount);
    byte[][] outputs = new byte[parityShards][];
    System.arraycopy(shards, dataShards, outputs, 0, parityShards);
    CodingLoop.code(parityRows, shards, outputs, parityShards, offset, byteCount);
  }

  /** True if the parity shards match the data shards. */
  public boolean isParityCorrect(byte[][] shards, int offset, int byteCount) {
    checkShards(shards, offset, byteCount);
    byte[][] expected = new byte[parityShards][offset + byteCount];
    CodingLoop.code(parityRows, shards, expected, parityShards, offset, byteCount);
    for (int p = 0; p < parityShards; p++) {
      if (!java.util.Arrays.equals(expected[p], offset, offset + byteCount, shards[dataShards + p], offset, offset + byteCount)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Rebuilds every shard whose {@code present} flag is false from any m present ones. Missing
   * shards must be allocated arrays of the right size; their content is overwritten.
   *
   * @throws IllegalArgumentException if fewer than m shards are present
   */
  public void reconstruct(byte[][] shards, boolean[] present, int offset, int byteCount) {
    checkShards(shards, offset, byteCount);
    // The first m present shards, and the rows of the encoding matrix that produced them.
    Survivors held = Survivors.pick(shards, present, dataShards);
    if (held == null) {
      return;
    }
    Matrix decode = matrix.selectRows(held.rows()).invert();

    int missingData = 0;
    byte[][] rows = new byte[parityShards][];
    byte[][] outputs = new byte[parityShards][];
    for (int d = 0; d < dataShards; d++) {
      if (!present[d]) {
        rows[missingData] = decode.row(d);
        outputs[missingData] = shards[d];
        missingData++;
      }
    }
    if (missingData > 0) {
      CodingLoop.code(rows, held.shards(), outputs, missingData, offset, byteCount);
    }

    // Data is complete now; recompute missing parity from it.
    int missingParity = 0;
    for (int p = 0; p < parityShards; p++) {
      if (!present[dataShards + p]) {
        rows[missingParity] = parityRows[p];
        outputs[missingParity] = shards[dataShards + p];
        missingParity++;
      }
    }
    if (missingParity > 0) {
      CodingLoop.code(rows, shards, outputs, missingParity, offset, byteCount);
    }
  }

  private void checkShards(byte[][] shards, int offset, int byteCount) {
    Objects.requireNonNull(shards, "shards");
    if (shards.length != totalShards()) {
      throw new IllegalArgumentException("expected " + totalShards() + " shards, got " + shards.length);
    }
    if (offset < 0 || byteCount < 0) {
      throw new IllegalArgumentException("offset and byte count must be >= 0, were " + offset + ", " + byteCount);
    }
    int size = -1;
    for (int i = 0; i < shards.length; i++) {
      if (shards[i] == null) {
        throw new IllegalArgumentException("shard " + i + " is null; allocate missing shards before reconstructing");
      }
      if (size < 0) {
        size = shards[i].length;
      } else if (shards[i].length != size) {
        throw new IllegalArgumentException("shards differ in size: shard 0 has " + size + " bytes, shard " + i + " has " + shards[i].length);
      }
    }
    if (offset + byteCount > size) {
      throw new IllegalArgumentException("range " + offset + "+" + byteCount + " exceeds shard size " + size);
    }
  }
}
