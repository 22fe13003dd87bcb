package org.cairn.core.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;

/**
 * zstd through zstd-jni's byte-array API (no stream wrappers: one native call per chunk, into a
 * buffer sized by {@code compressBound}), with a compression context reused per thread.
 */
final class ZstdCompressor implements Compressor {
  static final int DEFAULT_LEVEL = 1;

  private final int level;
  private final ThreadLocal<ZstdCompressCtx> ctx;

  ZstdCompressor(int level) {
    if (level < 1 || level > 19) {
      throw new IllegalArgumentException("zstd level must be between 1 and 19, was " + level);
    }
    this.level = level;
    this.ctx = ThreadLocal.withInitial(() -> {
      ZstdCompressCtx c = new ZstdCompressCtx();
      c.setLevel(level);
      c.setChecksum(false); // fragments carry CRC32C and chunks their SHA-256
      return c;
    });
  }

  @Override
  public String spec() {
    return "zstd:" + level;
  }

  @Override
  public Compressed compress(byte[] src, int offset, int length) {
    byte[] dst = new byte[(int) Zstd.compressBound(length)];
    int n = ctx.get().compressByteArray(dst, 0, dst.length, src, offset, length);
    return new Compressed(CompressionType.ZSTD, dst, n);
  }
}
