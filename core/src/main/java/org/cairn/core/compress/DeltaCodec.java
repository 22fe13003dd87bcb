package org.cairn.core.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import org.cairn.core.CorruptDataException;
import org.cairn.core.hash.ChunkId;

/**
 * A chunk compressed against another chunk, its <em>base</em> (the chunk at the same memory address
 * in the previous checkpoint): zstd with the base's plaintext as a raw-content dictionary, so the
 * bytes the two share cost a few bytes of match each. A Python interpreter's heap changes a few
 * objects per page between checkpoints: its 256 KiB chunks compress to about 1/20 of their plain
 * zstd size this way (docs/chunk-size.md).
 *
 * <pre>
 * offset size field
 *  0     32   base chunk id (as the version's manifests and the tracker's index name it)
 * 32      4   base length (plaintext bytes; big-endian)
 * 36     ...  zstd frame, compressed with the base as dictionary
 * </pre>
 * The payload is sealed and coded like any other ({@code CompressionType.DELTA} in the fragment
 * header), so the base id is as private as the chunk. Decoding needs the base's plaintext; the
 * tracker keeps a base referenced while a chunk coded against it is held.
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

  private DeltaCodec() {}

  /** Whether {@code base[0, length)} can serve as a base (a raw-content dictionary). */
  public static boolean usable(byte[] base, int length) {
    return length >= 4 && ByteBuffer.wrap(base, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt() != DICT_MAGIC;
  }

  /**
   * {@code src[offset, offset+length)} compressed at zstd {@code level} against {@code base} (all of
   * it), whose id is {@code baseId}: the whole payload, header included. The result is this thread's
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
   * Decodes {@code payload[offset, offset+length)} against the base's plaintext into
   * {@code dst[0, originalLength)}.
   *
   * @throws CorruptDataException if the base's length is not the one recorded, or the frame does
   *     not expand to exactly {@code originalLength} bytes
   */
  public static void decode(byte[] payload, int offset, int length, byte[] base, byte[] dst, int originalLength)
      throws CorruptDataException {
    ChunkId baseId = baseOf(payload, offset, length);
    int baseLength = ByteBuffer.wrap(payload, offset + ChunkId.LENGTH, 4).getInt();
    if (base.length != baseLength) {
      throw new CorruptDataException("delta against " + baseId.shortHex() + " expects a base of " + baseLength + " bytes, got "
          + base.length);
    }
    if (dst.length < originalLength) {
      throw new IllegalArgumentException("buffer of " + dst.length + " bytes cannot hold " + originalLength);
    }
    ZstdDecompressCtx ctx = DCTX.get();
    int n;
    try {
      ctx.loadDict(base);
      n = ctx.decompressByteArray(dst, 0, originalLength, payload, offset + HEADER, length - HEADER);
    } catch (ZstdException e) {
      throw new CorruptDataException("delta payload does not decompress: " + e.getMessage(), e);
    }
    if (n != originalLength) {
      throw new CorruptDataException("delta payload expanded to " + n + " bytes, expected " + originalLength);
    }
  }
}
