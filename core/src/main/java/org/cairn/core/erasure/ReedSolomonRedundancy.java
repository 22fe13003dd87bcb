package org.cairn.core.erasure;

import org.cairn.core.CorruptDataException;

/** {@code code:m+k}: the payload split into m zero-padded shards plus k Reed-Solomon parity shards. */
final class ReedSolomonRedundancy implements Redundancy {
  private final ReedSolomon rs;

  ReedSolomonRedundancy(int m, int k) {
    this.rs = new ReedSolomon(m, k);
  }

  @Override
  public Codec codec() {
    return Codec.REED_SOLOMON;
  }

  @Override
  public int dataFragments() {
    return rs.dataShards();
  }

  @Override
  public int parityFragments() {
    return rs.parityShards();
  }

  @Override
  public String spec() {
    return "code:" + rs.dataShards() + "+" + rs.parityShards();
  }

  @Override
  public int fragmentSize(int payloadLength) {
    return (payloadLength + rs.dataShards() - 1) / rs.dataShards();
  }

  @Override
  public byte[][] encode(byte[] payload, int offset, int length) {
    int size = fragmentSize(length);
    byte[][] shards = new byte[totalFragments()][];
    Fragments.split(payload, offset, length, shards, rs.dataShards(), size);
    for (int p = rs.dataShards(); p < totalFragments(); p++) {
      shards[p] = new byte[size];
    }
    rs.encodeParity(shards, 0, size);
    return shards;
  }

  @Override
  public byte[] decode(byte[][] fragments, int payloadLength) throws CorruptDataException {
    int size = fragmentSize(payloadLength);
    boolean[] present = Fragments.present(fragments, totalFragments(), dataFragments(), size, spec());
    byte[][] shards = fragments.clone();
    boolean needData = false;
    for (int i = 0; i < shards.length; i++) {
      if (shards[i] == null) {
        shards[i] = new byte[size];
        needData |= i < dataFragments();
      }
    }
    if (needData) {
      // Rebuilds parity too; cheap next to the data and keeps one code path.
      rs.reconstruct(shards, present, 0, size);
    }
    byte[] out = new byte[payloadLength];
    Fragments.join(shards, rs.dataShards(), size, out);
    return out;
  }

  @Override
  public String toString() {
    return spec();
  }
}
