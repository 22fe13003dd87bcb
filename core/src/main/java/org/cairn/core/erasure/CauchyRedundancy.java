package org.cairn.core.erasure;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.cairn.core.CorruptDataException;

/**
 * {@code cauchy:m+k}: like {@code code:m+k} but coded with the XOR-only {@link CauchyCode}. Shards
 * are padded to a multiple of 64 bytes (8 packets of whole longs) and read as little-endian longs.
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
    int longs = size / 8;
    long[][] shards = new long[totalFragments()][longs];
    byte[][] out = new byte[totalFragments()][];
    for (int i = 0; i < code.dataShards(); i++) {
      out[i] = new byte[size];
    }
    Fragments.split(payload, offset, length, out, code.dataShards(), size);
    for (int i = 0; i < code.dataShards(); i++) {
      ByteBuffer.wrap(out[i]).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(shards[i]);
    }
    code.encodeParity(shards, longs / 8);
    for (int p = code.dataShards(); p < totalFragments(); p++) {
      out[p] = toBytes(shards[p], size);
    }
    return out;
  }

  @Override
  public byte[] decode(byte[][] fragments, int payloadLength) throws CorruptDataException {
    int size = fragmentSize(payloadLength);
    boolean[] present = Fragments.present(fragments, totalFragments(), dataFragments(), size, spec());
    byte[] out = new byte[payloadLength];
    boolean needData = false;
    for (int i = 0; i < code.dataShards(); i++) {
      needData |= !present[i];
    }
    if (!needData) {
      Fragments.join(fragments, code.dataShards(), size, out);
      return out;
    }
    int longs = size / 8;
    long[][] shards = new long[totalFragments()][longs];
    for (int i = 0; i < totalFragments(); i++) {
      if (present[i]) {
        ByteBuffer.wrap(fragments[i]).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(shards[i]);
      }
    }
    code.reconstruct(shards, present, longs / 8);
    byte[][] data = new byte[code.dataShards()][];
    for (int i = 0; i < code.dataShards(); i++) {
      data[i] = present[i] ? fragments[i] : toBytes(shards[i], size);
    }
    Fragments.join(data, code.dataShards(), size, out);
    return out;
  }

  private static byte[] toBytes(long[] shard, int size) {
    byte[] b = new byte[size];
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(shard);
    return b;
  }

  @Override
  public String toString() {
    return spec();
  }
}
