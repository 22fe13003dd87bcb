package org.cairn.core.compress;

/**
 * zstd, except that a chunk is stored raw when compression saves less than a threshold (default
 * 3 %): application-level images are often compressed already, and storing them raw makes fetch
 * cheaper at no cost in space.
 */
final class AutoCompressor implements Compressor {
  static final double DEFAULT_MIN_SAVING = 0.03;

  private final Compressor inner;
  private final double minSaving;

  AutoCompressor(Compressor inner, double minSaving) {
    if (!(minSaving >= 0 && minSaving < 1)) {
      throw new IllegalArgumentException("minimum saving must be in [0 %, 100 %), was " + (minSaving * 100) + " %");
    }
    this.inner = inner;
    this.minSaving = minSaving;
  }

  @Override
  public int deltaLevel() {
    return inner.deltaLevel();
  }

  @Override
  public String spec() {
    return "auto:" + inner.spec().substring(inner.spec().indexOf(':') + 1) + ":" + Math.round(minSaving * 100) + "%";
  }

  @Override
  public Compressed compress(byte[] src, int offset, int length) {
    Compressed c = inner.compress(src, offset, length);
    if (c.length() > length * (1.0 - minSaving)) {
      return NoCompression.INSTANCE.compress(src, offset, length);
    }
    return c;
  }

  @Override
  public Compressed compressTransient(byte[] src, int offset, int length) {
    Compressed c = inner.compressTransient(src, offset, length);
    if (c.length() > length * (1.0 - minSaving)) {
      return NoCompression.INSTANCE.compressTransient(src, offset, length);
    }
    return c;
  }
}
