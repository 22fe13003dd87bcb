package org.cairn.core.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;

/**
 * zstd through zstd-jni's byte-array API (no stream wrappers: one native call per chunk), with a
 * compression context and a {@code compressBound}-sized scratch buffer reused per thread; the
 * result is copied out at its exact size. Allocating a fresh bound-sized array per chunk instead
 * made 1 MiB chunks G1 "humongous" objects and halved the pipeline's rate (docs/benchmarks.md).
 */
final class ZstdCompressor implements Compressor {
  static final int DEFAULT_LEVEL = 1;

  private final int level;
  private final ThreadLocal<ZstdCompressCtx> ctx;
  private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[0]);

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
  public int deltaLevel() {
    return level;
  }

  @Override
  public String spec() {
    return "zstd:" + level;
  }

  @Override
  public Compressed compress(byte[] src, int offset, int length) {
    Compressed c = compressTransient(src, offset, length);
    return new Compressed(CompressionType.ZSTD, java.util.Arrays.copyOf(c.data(), c.length()), c.length());
  }

  /** The result is this thread's scratch buffer, valid until its next call. */
  @Override
  public Compressed compressTransient(byte[] src, int offset, int length) {
    int bound = (int) Zstd.compressBound(length);
    byte[] dst = scratch.get();
    if (dst.length < bound) {
      dst = new byte[bound];
      scratch.set(dst);
    }
    int n = ctx.get().compressByteArray(dst, 0, dst.length, src, offset, length);
    return new Compressed(CompressionType.ZSTD, dst, n);
  }
}
