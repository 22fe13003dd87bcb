package org.cairn.core.compress;

/** Stores chunks as they are. */
final class NoCompression implements Compressor {
  static final NoCompression INSTANCE = new NoCompression();

  private NoCompression() {}

  @Override
  public String spec() {
    return "none";
  }

  @Override
  public Compressed compress(byte[] src, int offset, int length) {
    byte[] copy = java.util.Arrays.copyOfRange(src, offset, offset + length);
    return new Compressed(CompressionType.NONE, copy, length);
  }

  /** {@code src} itself when it starts at 0. */
  @Override
  public Compressed compressTransient(byte[] src, int offset, int length) {
    return offset == 0 ? new Compressed(CompressionType.NONE, src, length) : compress(src, offset, length);
  }
}
