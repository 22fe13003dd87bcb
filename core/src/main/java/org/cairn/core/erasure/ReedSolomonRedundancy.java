package org.cairn.core.erasure;

/** {@code code:m+k}: Reed-Solomon parity over shards of ceil(length / m) bytes. */
final class ReedSolomonRedundancy extends StripedRedundancy {
  private final ReedSolomon rs;

  ReedSolomonRedundancy(int m, int k) {
    super(m, k);
    this.rs = new ReedSolomon(m, k);
  }

  @Override
  public Codec codec() {
    return Codec.REED_SOLOMON;
  }

  @Override
  String name() {
    return "code";
  }

  @Override
  public int fragmentSize(int payloadLength) {
    return (payloadLength + dataFragments() - 1) / dataFragments();
  }

  @Override
  void encodeParity(byte[][] shards, int size) {
    rs.encodeParity(shards, 0, size);
  }

  @Override
  void reconstruct(byte[][] shards, boolean[] present, int size) {
    rs.reconstruct(shards, present, 0, size);
  }
}
