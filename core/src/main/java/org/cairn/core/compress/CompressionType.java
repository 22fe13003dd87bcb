package org.cairn.core.compress;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.cairn.core.CorruptDataException;

/**
 * How a stored payload is compressed, with the byte id recorded in each fragment header; knows how
 * to undo itself. Decompression always checks the result has exactly the expected length.
 */
public enum CompressionType {
  NONE(0),
  ZSTD(1),
  GZIP(2),
  /**
   * zstd with a base chunk as its dictionary ({@link DeltaCodec}); decoding needs the base, so only
   * {@code ChunkCodec} decodes it. Written by builds before 2026-11-26; read by every build.
   */
  DELTA(3),
  /**
   * The chunk XORed page by page with its base where they share words, then zstd ({@link DeltaCodec});
   * decoding needs the base, so only {@code ChunkCodec} decodes it. What stores write since 2026-11-26.
   */
  PAGE_DELTA(4);

  private static final ThreadLocal<ZstdDecompressCtx> ZSTD_DCTX = ThreadLocal.withInitial(ZstdDecompressCtx::new);

  private final int id;

  CompressionType(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  /** Whether the payload was coded against a base chunk (it names the base; decoding needs it). */
  public boolean delta() {
    return this == DELTA || this == PAGE_DELTA;
  }

  public static CompressionType fromId(int id) throws CorruptDataException {
    for (CompressionType t : values()) {
      if (t.id == id) {
        return t;
      }
    }
    throw new CorruptDataException("unknown compression id " + id);
  }

  /**
   * Decompresses {@code src[offset, offset+length)} into a new array of exactly {@code originalLength} bytes.
   *
   * @throws CorruptDataException if the input is not valid or does not expand to that length
   */
  public byte[] decompress(byte[] src, int offset, int length, int originalLength) throws CorruptDataException {
    byte[] out = new byte[originalLength];
    decompress(src, offset, length, out, originalLength);
    return out;
  }

  /**
   * Decompresses {@code src[offset, offset+length)} into {@code dst[0, originalLength)} (callers reuse
   * buffers this way: a fresh 1 MiB array per chunk is a G1 humongous allocation).
   *
   * @throws CorruptDataException if the input is not valid or does not expand to exactly that length
   */
  public void decompress(byte[] src, int offset, int length, byte[] dst, int originalLength) throws CorruptDataException {
    if (dst.length < originalLength) {
      throw new IllegalArgumentException("buffer of " + dst.length + " bytes cannot hold " + originalLength);
    }
    switch (this) {
      case NONE:
        if (length != originalLength) {
          throw new CorruptDataException("raw payload has " + length + " bytes, expected " + originalLength);
        }
        System.arraycopy(src, offset, dst, 0, length);
        return;
      case ZSTD: {
        int n;
        try {
          n = ZSTD_DCTX.get().decompressByteArray(dst, 0, originalLength, src, offset, length);
        } catch (ZstdException e) {
          throw new CorruptDataException("zstd payload does not decompress: " + e.getMessage(), e);
        }
        if (n != originalLength) {
          throw new CorruptDataException("zstd payload expanded to " + n + " bytes, expected " + originalLength);
        }
        return;
      }
      case GZIP: {
        try (GzipCompressorInputStream in = new GzipCompressorInputStream(new ByteArrayInputStream(src, offset, length))) {
          int n = in.readNBytes(dst, 0, originalLength);
          if (n != originalLength || in.read() != -1) {
            throw new CorruptDataException("gzip payload does not expand to " + originalLength + " bytes");
          }
          return;
        } catch (CorruptDataException e) {
          throw e;
        } catch (IOException e) {
          throw new CorruptDataException("gzip payload does not decompress: " + e.getMessage(), e);
        }
      }
      case DELTA:
      case PAGE_DELTA:
        throw new CorruptDataException("a delta payload decodes only against its base chunk");
      default:
        throw new AssertionError(this);
    }
  }
}
