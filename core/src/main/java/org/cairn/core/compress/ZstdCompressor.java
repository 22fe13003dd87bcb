package org.cairn.core.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;

/**
 * zstd through zstd-jni's byte-array API (no stream wrappers: one native call per chunk), with a
 * compression context and a {@code compressBound}-sized scratch buffer reused per thread; the
 * result is copied out at its exact size. Allocating a fresh bound-sized array per chunk instead
 * made 1 MiB chunks G1 "humongous" objects and halved the pipeline's rate (docs/benchmarks/journal.md).
 */
final class ZstdCompressor implements Compressor {
  /**
   * Level 1 (with hash log 13 and minimum match 5: see the constructor). zstd's fast levels (-1 to -5, {@code
   * --compression auto:-1}) compress the DMTCP series faster, but on the job's path level -1 measured within this
   * machine's spread and kept 11 % more bytes (docs/benchmarks/journal.md, "zstd's fast levels").
   */
  static final int DEFAULT_LEVEL = 1;
  /** Level 1's hash log and minimum match, whatever the input's size (see the constructor). */
  static final int HASH_LOG_1 = 13;
  static final int MIN_MATCH_1 = 5;
  /** The fastest level taken (zstd's negative levels trade ratio for speed; 0 would mean its default, 3). */
  static final int MIN_LEVEL = -5;

  private final int level;
  private final ThreadLocal<ZstdCompressCtx> ctx;
  private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[0]);

  ZstdCompressor(int level) {
    if (level == 0 || level < MIN_LEVEL || level > 19) {
      throw new IllegalArgumentException("zstd level must be between " + MIN_LEVEL + " and -1 or between 1 and 19, was " + level);
    }
    this.level = level;
    this.ctx = ThreadLocal.withInitial(() -> {
      ZstdCompressCtx c = new ZstdCompressCtx();
      c.setLevel(level);
      if (level == 1) {
        // zstd picks level 1's parameters by the input's size; hash log 13 and minimum match 5 (its negative levels'
        // base row, with literals still compressed) compress the DMTCP images 3 % smaller and 25 % faster at 256 KiB,
        // and a third smaller at 1 MiB, where its level 1 row leaves them 1.7-fold (docs/benchmarks/journal.md, "zstd level
        // 1's parameters by input size")
        c.setHashLog(HASH_LOG_1);
        c.setMinMatch(MIN_MATCH_1);
      }
      c.setChecksum(false); // fragments carry CRC32C and chunks their SHA-256
      return c;
    });
  }

  /** Level 1 at least: XORed pages are mostly zeros, and a fast level left their deltas larger (more bytes to the donors). */
  @Override
  public int deltaLevel() {
    return Math.max(level, 1);
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
