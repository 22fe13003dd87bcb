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
  public final String toString() {
    return spec();
  }
}
