package org.cairn.core.compress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipParameters;

/** gzip (deflate) through Commons Compress: portable, slow (~33 MB/s at level 6 here). */
final class GzipCompressor implements Compressor {
  static final int DEFAULT_LEVEL = 6;

  private final int level;

  GzipCompressor(int level) {
    if (level < 1 || level > 9) {
      throw new IllegalArgumentException("gzip level must be between 1 and 9, was " + level);
    }
    this.level = level;
  }

  @Override
  public String spec() {
    return "gzip:" + level;
  }

  @Override
  public Compressed compress(byte[] src, int offset, int length) {
    ExposedBuffer out = new ExposedBuffer(length / 2 + 64);
    GzipParameters params = new GzipParameters();
    params.setCompressionLevel(level);
    try (GzipCompressorOutputStream gz = new GzipCompressorOutputStream(out, params)) {
      gz.write(src, offset, length);
    } catch (IOException e) {
      throw new UncheckedIOException("gzip into memory failed", e);
    }
    return new Compressed(CompressionType.GZIP, out.buffer(), out.size());
  }

  /** Gives access to the backing array without the copy of {@code toByteArray}. */
  private static final class ExposedBuffer extends ByteArrayOutputStream {
    ExposedBuffer(int size) {
      super(size);
    }

    byte[] buffer() {
      return buf;
    }
  }
}
