package org.cairn.core.erasure;

import org.cairn.core.CorruptDataException;

/** {@code replicate:r}: r identical copies of the payload; any one gives it back (m = 1, k = r - 1). */
final class Replication implements Redundancy {
  private final int copies;

  Replication(int copies) {
    if (copies < 1 || copies > 256) {
      throw new IllegalArgumentException("replicas must be between 1 and 256, was " + copies);
    }
    this.copies = copies;
  }

  @Override
  public Codec codec() {
    return Codec.REPLICATE;
  }

  @Override
  public int dataFragments() {
    return 1;
  }

  @Override
  public int parityFragments() {
    return copies - 1;
  }

  @Override
  public String spec() {
    return "replicate:" + copies;
  }

  @Override
  public int fragmentSize(int payloadLength) {
    return payloadLength;
  }

  @Override
  public byte[][] encode(byte[] payload, int offset, int length) {
    byte[] copy = java.util.Arrays.copyOfRange(payload, offset, offset + length);
    byte[][] out = new byte[copies][];
    // Replicas are never mutated after encoding, so they can share one array.
    java.util.Arrays.fill(out, copy);
    return out;
  }

  @Override
  public byte[] decode(byte[][] fragments, int payloadLength) throws CorruptDataException {
    boolean[] present = Fragments.present(fragments, copies, 1, payloadLength, spec());
    for (int i = 0; i < copies; i++) {
      if (present[i]) {
        return fragments[i];
      }
    }
    throw new AssertionError("Fragments.present guarantees one replica");
  }

  @Override
  public String toString() {
    return spec();
  }
}
