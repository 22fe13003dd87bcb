package org.cairn.core.erasure;

import org.cairn.core.CorruptDataException;

/**
 * {@code cauchy:m+k}: like {@code code:m+k} but coded with the XOR-only {@link CauchyCode}. Shards
 * are padded to a multiple of 64 bytes (8 packets of whole longs).
 */
final class CauchyRedundancy implements Redundancy {
  private final CauchyCode code;

  CauchyRedundancy(int m, int k) {
    this.code = new CauchyCode(m, k);
  }

  @Override
  public Codec codec() {
    return Codec.CAUCHY;
  }

  @Override
  public int dataFragments() {
    return code.dataShards();
  }

  @Override
  public int parityFragments() {
    return code.parityShards();
  }

  @Override
  public String spec() {
    return "cauchy:" + code.dataShards() + "+" + code.parityShards();
  }

  @Override
  public int fragmentSize(int payloadLength) {
    int perShard = (payloadLength + code.dataShards() - 1) / code.dataShards();
    return (perShard + 63) & ~63;
  }

  @Override
  public byte[][] encode(byte[] payload, int offset, int length) {
    int size = fragmentSize(length);
    byte[][] shards = new byte[totalFragments()][];
    Fragments.split(payload, offset, length, shards, code.dataShards(), size);
    for (int p = code.dataShards(); p < totalFragments(); p++) {
      shards[p] = new byte[size];
    }
    code.encodeParity(shards);
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
      code.reconstruct(shards, present);
    }
    byte[] out = new byte[payloadLength];
    Fragments.join(shards, code.dataShards(), size, out);
    return out;
  }

  @Override
  public String toString() {
    return spec();
  }
}
