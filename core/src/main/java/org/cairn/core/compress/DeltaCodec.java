package org.cairn.core.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.cairn.core.CorruptDataException;
import org.cairn.core.hash.ChunkId;

/**
 * A chunk coded against another chunk, its <em>base</em> (the chunk at the same memory address in
 * the previous checkpoint). Memory changes in place: between two checkpoints a page keeps most of
 * its words where they were, so XORing it with the base's page at the same offset leaves zeros
 * where nothing changed, and zstd's fast level turns a changed chunk into a few bytes per changed
 * word. A page that shares less than an eighth of its words with the base is kept as it is (XOR
 * would only add the base's entropy to it).
 *
 * <pre>
 * PAGE_DELTA (written since 2026-11-26)
 * offset size field
 *  0     32   base chunk id (as the version's manifests and the tracker's index name it)
 * 32      4   base length (plaintext bytes; big-endian)
 * 36      P   page map: bit (i % 8) of byte i / 8 is set when page i (bytes 4096 i ..) was XORed with
 *             the base; P = ceil(ceil(length / 4096) / 8)
 * 36+P   ...  zstd frame of the chunk with those pages XORed
 *
 * DELTA (written before; read by every build)
 *  0     32   base chunk id
 * 32      4   base length
 * 36     ...  zstd frame, compressed with the base as a raw-content dictionary
 * </pre>
 * The first form codes the three measured series 5-9 x faster than the second (zstd level 3 with
 * the base as dictionary, which had to index the base for each chunk), for deltas of about the same
 * size (docs/chunk-size.md). The payload is sealed and coded like any other (the compression id in
 * the fragment header says which form), so the base id is as private as the chunk. Decoding needs
 * the base's plaintext; the tracker keeps a base referenced while a chunk coded against it is held.
 */
public final class DeltaCodec {
  /** Bytes before the zstd frame. */
  public static final int HEADER = ChunkId.LENGTH + 4;
  /** zstd's dictionary magic (little-endian): a base starting with it would be read as a formatted dictionary. */
  private static final int DICT_MAGIC = 0xEC30A437;
  private static final int WINDOW_LOG_MIN = 10;

  private static final ThreadLocal<ZstdCompressCtx> CCTX = ThreadLocal.withInitial(() -> {
    ZstdCompressCtx c = new ZstdCompressCtx();
    c.setChecksum(false);
    return c;
  });
  private static final ThreadLocal<ZstdDecompressCtx> DCTX = ThreadLocal.withInitial(ZstdDecompressCtx::new);
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[0]);
  /** The page delta's own contexts: a dictionary loaded into a zstd context stays loaded. */
  private static final ThreadLocal<ZstdCompressCtx> PAGE_CCTX = ThreadLocal.withInitial(() -> {
    ZstdCompressCtx c = new ZstdCompressCtx();
    c.setChecksum(false);
    return c;
  });
  private static final ThreadLocal<ZstdDecompressCtx> PAGE_DCTX = ThreadLocal.withInitial(ZstdDecompressCtx::new);
  private static final ThreadLocal<byte[]> XORED = ThreadLocal.withInitial(() -> new byte[0]);
  /** The unit the page delta XORs or keeps. */
  public static final int PAGE = 4096;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private DeltaCodec() {}

  /** Whether {@code base[0, length)} can serve as a base (a raw-content dictionary). */
  public static boolean usable(byte[] base, int length) {
    return length >= 4 && ByteBuffer.wrap(base, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt() != DICT_MAGIC;
  }

  /**
   * The older form ({@code DELTA}): {@code src[offset, offset+length)} compressed at zstd {@code level}
   * with {@code base} (all of it), whose id is {@code baseId}, as dictionary: the whole payload,
   * header included. Stores write {@link #encodePagesTransient}; this stays so the reader's tests can
   * write what earlier builds stored. The result is this thread's
   * scratch buffer, valid until its next call (a bound-sized array per chunk would be a G1 humongous
   * allocation for large chunks).
   *
   * @throws IllegalArgumentException if the base is not {@linkplain #usable usable}
   */
  public static Compressed encodeTransient(ChunkId baseId, byte[] base, byte[] src, int offset, int length, int level) {
    if (!usable(base, base.length)) {
      throw new IllegalArgumentException("base " + baseId.shortHex() + " cannot be a dictionary");
    }
    int bound = HEADER + (int) Zstd.compressBound(length);
    byte[] out = SCRATCH.get();
    if (out.length < bound) {
      out = new byte[bound];
      SCRATCH.set(out);
    }
    baseId.copyTo(out, 0);
    ByteBuffer.wrap(out, ChunkId.LENGTH, 4).putInt(base.length);
    ZstdCompressCtx ctx = CCTX.get();
    ctx.setLevel(level);
    // the window must reach from the chunk's end back to the base's start (zstd sizes it to the chunk alone)
    ctx.setWindowLog(Math.max(WINDOW_LOG_MIN, 64 - Long.numberOfLeadingZeros((long) base.length + length - 1)));
    ctx.loadDict(base);
    int n = ctx.compressByteArray(out, HEADER, bound - HEADER, src, offset, length);
    return new Compressed(CompressionType.DELTA, out, HEADER + n);
  }

  /**
   * {@code src[0, length)} XORed page by page with {@code base} where a page shares at least an
   * eighth of its 8-byte words with the base's bytes at the same offset, then compressed at zstd
   * {@code level}: the whole {@code PAGE_DELTA} payload, header included, in this thread's scratch
   * buffer (valid until its next call). Null when no page shares enough with the base: the chunk is
   * better coded plainly.
   */
  public static Compressed encodePagesTransient(ChunkId baseId, byte[] base, byte[] src, int length, int level) {
    int pages = (length + PAGE - 1) / PAGE;
    int map = (pages + 7) / 8;
    int head = HEADER + map;
    int bound = head + (int) Zstd.compressBound(length);
    byte[] out = SCRATCH.get();
    if (out.length < bound) {
      out = new byte[bound];
      SCRATCH.set(out);
    }
    byte[] xored = XORED.get();
    if (xored.length < length) {
      xored = new byte[length];
      XORED.set(xored);
    }
    java.util.Arrays.fill(out, HEADER, head, (byte) 0);
    int shared = 0;
    for (int p = 0; p < pages; p++) {
      int from = p * PAGE;
      int to = Math.min(length, from + PAGE);
      if (to <= base.length && sharesWords(base, src, from, to)) {
        xor(base, src, xored, from, to);
        out[HEADER + p / 8] |= (byte) (1 << (p % 8));
        shared++;
      } else {
        System.arraycopy(src, from, xored, from, to - from);
      }
    }
    if (shared == 0) {
      return null;
    }
    baseId.copyTo(out, 0);
    ByteBuffer.wrap(out, ChunkId.LENGTH, 4).putInt(base.length);
    ZstdCompressCtx ctx = PAGE_CCTX.get();
    ctx.setLevel(level);
    int n = ctx.compressByteArray(out, head, bound - head, xored, 0, length);
    return new Compressed(CompressionType.PAGE_DELTA, out, head + n);
  }

  private static boolean sharesWords(byte[] base, byte[] src, int from, int to) {
    int words = (to - from) / 8;
    int equal = 0;
    for (int w = from, end = from + words * 8; w < end; w += 8) {
      if ((long) LONGS.get(base, w) == (long) LONGS.get(src, w)) {
        equal++;
      }
    }
    return words > 0 && equal * 8 >= words;
  }

  /** {@code dst[from, to) = a[from, to) ^ b[from, to)}. */
  private static void xor(byte[] a, byte[] b, byte[] dst, int from, int to) {
    int w = from;
    for (int end = from + (to - from) / 8 * 8; w < end; w += 8) {
      LONGS.set(dst, w, (long) LONGS.get(a, w) ^ (long) LONGS.get(b, w));
    }
    for (; w < to; w++) {
      dst[w] = (byte) (a[w] ^ b[w]);
    }
  }

  /**
   * The id of the base a payload was coded against.
   *
   * @throws CorruptDataException if the payload is too short to name one
   */
  public static ChunkId baseOf(byte[] payload, int offset, int length) throws CorruptDataException {
    if (length < HEADER) {
      throw new CorruptDataException("delta payload of " + length + " bytes is shorter than its header");
    }
    return ChunkId.fromBytes(payload, offset);
  }

  /**
   * Decodes {@code payload[offset, offset+length)}, a {@code type} delta ({@code DELTA} or
   * {@code PAGE_DELTA}), against the base's plaintext into
   * {@code dst[0, originalLength)}.
   *
   * @throws CorruptDataException if the base's length is not the one recorded, or the frame does
   *     not expand to exactly {@code originalLength} bytes
   */
  public static void decode(CompressionType type, byte[] payload, int offset, int length, byte[] base, byte[] dst,
      int originalLength) throws CorruptDataException {
    ChunkId baseId = baseOf(payload, offset, length);
    int baseLength = ByteBuffer.wrap(payload, offset + ChunkId.LENGTH, 4).getInt();
    if (base.length != baseLength) {
      throw new CorruptDataException("delta against " + baseId.shortHex() + " expects a base of " + baseLength + " bytes, got "
          + base.length);
    }
    if (dst.length < originalLength) {
      throw new IllegalArgumentException("buffer of " + dst.length + " bytes cannot hold " + originalLength);
    }
    if (type == CompressionType.DELTA) {
      ZstdDecompressCtx ctx = DCTX.get();
      ctx.loadDict(base);
      inflate(ctx, payload, offset + HEADER, length - HEADER, dst, originalLength);
      return;
    }
    if (type != CompressionType.PAGE_DELTA) {
      throw new IllegalArgumentException(type + " is not a delta");
    }
    int pages = (originalLength + PAGE - 1) / PAGE;
    int head = HEADER + (pages + 7) / 8;
    if (length < head) {
      throw new CorruptDataException("page delta of " + length + " bytes is shorter than its header and page map");
    }
    inflate(PAGE_DCTX.get(), payload, offset + head, length - head, dst, originalLength);
    for (int p = 0; p < pages; p++) {
      if ((payload[offset + HEADER + p / 8] & (1 << (p % 8))) != 0) {
        int from = p * PAGE;
        int to = Math.min(originalLength, from + PAGE);
        if (to > base.length) {
          throw new CorruptDataException("page delta XORs page " + p + " beyond its base's " + base.length + " bytes");
        }
        xor(base, dst, dst, from, to);
      }
    }
  }

  private static void inflate(ZstdDecompressCtx ctx, byte[] src, int offset, int length, byte[] dst, int originalLength)
      throws CorruptDataException {
    int n;
    try {
      n = ctx.decompressByteArray(dst, 0, originalLength, src, offset, length);
    } catch (ZstdException e) {
      throw new CorruptDataException("delta payload does not decompress: " + e.getMessage(), e);
    }
    if (n != originalLength) {
      throw new CorruptDataException("delta payload expanded to " + n + " bytes, expected " + originalLength);
    }
  }
}
