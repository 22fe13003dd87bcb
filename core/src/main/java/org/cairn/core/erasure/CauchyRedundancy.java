package org.cairn.core.erasure;

/**
 * {@code cauchy:m+k}: like {@code code:m+k} but coded with the XOR-only {@link CauchyCode}; shards
 * are padded to a multiple of 64 bytes (8 packets of whole longs).
 */
final class CauchyRedundancy extends StripedRedundancy {
  private final CauchyCode code;

  CauchyRedundancy(int m, int k) {
    super(m, k);
    this.code = new CauchyCode(m, k);
  }

  @Override
  public Codec codec() {
    return Codec.CAUCHY;
  }

  @Override
  String name() {
    return "cauchy";
  }

  @Override
  public int fragmentSize(int payloadLength) {
    int perShard = (payloadLength + dataFragments() - 1) / dataFragments();
    return (perShard + 63) & ~63;
  }

  @Override
  void encodeParity(byte[][] shards, int size) {
    code.encodeParity(shards);
  }

  @Override
  void reconstruct(byte[][] shards, boolean[] present, int size) {
    code.reconstruct(shards, present);
  }
}
