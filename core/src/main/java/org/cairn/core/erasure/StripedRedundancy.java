package org.cairn.core.erasure;

import org.cairn.core.CorruptDataException;

/**
 * The shared shape of the m+k codes: the payload is cut into m zero-padded data shards of equal
 * size, k parity shards are computed from them, and decoding rebuilds missing data shards from any
 * m present ones. Subclasses supply the codec and its shard-size rule.
 */
abstract class StripedRedundancy implements Redundancy {
  private final int m;
  private final int k;

  StripedRedundancy(int m, int k) {
    checkCode(m, k);
    this.m = m;
    this.k = k;
  }

  /** The parameter rules every GF(2^8) code shares. */
  static void checkCode(int dataShards, int parityShards) {
    if (dataShards < 1) {
      throw new IllegalArgumentException("data shards must be at least 1, was " + dataShards);
    }
    if (parityShards < 1) {
      throw new IllegalArgumentException("parity shards must be at least 1, was " + parityShards);
    }
    if (dataShards + parityShards > 256) {
      throw new IllegalArgumentException(
          "data + parity shards must be at most 256 in GF(2^8), was " + (dataShards + parityShards));
    }
  }

  /** Computes shards[m..n-1] from shards[0..m-1], all {@code size} bytes. */
  abstract void encodeParity(byte[][] shards, int size);

  /** Rebuilds the shards not present (allocated, {@code size} bytes) from any m present ones. */
  abstract void reconstruct(byte[][] shards, boolean[] present, int size);

  /** The spec's name, e.g. {@code code} or {@code cauchy}. */
  abstract String name();

  @Override
  public final int dataFragments() {
    return m;
  }

  @Override
  public final int parityFragments() {
    return k;
  }

  @Override
  public final String spec() {
    return name() + ":" + m + "+" + k;
  }

  @Override
  public final byte[][] encode(byte[] payload, int offset, int length) {
    int size = fragmentSize(length);
    byte[][] shards = new byte[m + k][];
    Fragments.split(payload, offset, length, shards, m, size);
    for (int p = m; p < m + k; p++) {
      shards[p] = new byte[size];
    }
    encodeParity(shards, size);
    return shards;
  }

  @Override
  public final byte[] decode(byte[][] fragments, int payloadLength) throws CorruptDataException {
    int size = fragmentSize(payloadLength);
    boolean[] present = Fragments.present(fragments, m + k, m, size, spec());
    byte[][] shards = fragments.clone();
    boolean needData = false;
    for (int i = 0; i < shards.length; i++) {
      if (shards[i] == null) {
        shards[i] = new byte[size];
        needData |= i < m;
      }
    }
    if (needData) {
      // rebuilds missing parity too: cheap next to the data, and one code path
      reconstruct(shards, present, size);
    }
    byte[] out = new byte[payloadLength];
    Fragments.join(shards, m, size, out);
    return out;
  }

  @Override
  public final byte[][] complete(byte[][] fragments, int payloadLength) throws CorruptDataException {
    int size = fragmentSize(payloadLength);
    Fragments.present(fragments, m + k, m, size, spec());
    byte[][] shards = new byte[m + k][];
    boolean[] used = new boolean[m + k];
    int held = 0;
    for (int i = 0; i < shards.length; i++) {
      if (fragments[i] != null && held < m) {
        shards[i] = fragments[i];
        used[i] = true;
        held++;
      } else {
        shards[i] = new byte[size];
      }
    }
    reconstruct(shards, used, size);
    // encode(decode(...)) zero-pads the payload: m fragments whose data shards are padded otherwise make no payload
    for (int i = 0; i < m; i++) {
      int from = Math.max(0, Math.min(size, payloadLength - i * size));
      for (int b = from; b < size; b++) {
        if (shards[i][b] != 0) {
          throw new CorruptDataException(spec() + ": fragments " + presentIndices(used) + " make data fragment " + i
              + " with non-zero padding at byte " + b + ": they are not one payload's");
        }
      }
    }
    return shards;
  }

  private static String presentIndices(boolean[] used) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < used.length; i++) {
      if (used[i]) {
        out.append(out.length() == 0 ? "" : ",").append(i);
      }
    }
    return out.toString();
  }

  @Override
  public final String toString() {
    return spec();
  }
}
