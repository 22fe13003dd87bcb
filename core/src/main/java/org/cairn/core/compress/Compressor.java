package org.cairn.core.compress;

import java.util.Locale;

/**
 * Compresses one chunk. Implementations are thread-safe. The result records which compression was
 * actually applied ({@code auto} may store a chunk raw).
 */
public interface Compressor {

  /** The spec this compressor was made from, e.g. {@code zstd:3}. */
  String spec();

  Compressed compress(byte[] src, int offset, int length);

  /**
   * As {@link #compress}, but the result may share memory with {@code src} or with a buffer this
   * thread reuses: it is valid only until this thread's next call and must not be kept. For a caller
   * that copies the result at once (the store pipeline cuts it into fragments), this saves copying
   * every chunk out of the compressor's scratch buffer.
   */
  default Compressed compressTransient(byte[] src, int offset, int length) {
    return compress(src, offset, length);
  }

  /** The zstd level chunks are compressed at against a base ({@link DeltaCodec}); 0: never against a base. */
  default int deltaLevel() {
    return 0;
  }

  /** Default: zstd level 1 that keeps chunks raw when it saves under 3 %. */
  String DEFAULT_SPEC = "auto";

  /**
   * Parses {@code none}, {@code zstd[:LEVEL]} (-5..-1 or 1–19, default 1), {@code gzip[:LEVEL]} (1–9, default 6)
   * or {@code auto[:LEVEL][:MIN_SAVING%]} (zstd, stored raw when it saves less than MIN_SAVING, default 3 %).
   */
  static Compressor parse(String spec) {
    String s = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
    String[] parts = s.split(":");
    try {
      switch (parts[0]) {
        case "none":
          if (parts.length == 1) {
            return NoCompression.INSTANCE;
          }
          break;
        case "zstd":
          if (parts.length <= 2) {
            return new ZstdCompressor(parts.length == 2 ? Integer.parseInt(parts[1]) : ZstdCompressor.DEFAULT_LEVEL);
          }
          break;
        case "gzip":
          if (parts.length <= 2) {
            return new GzipCompressor(parts.length == 2 ? Integer.parseInt(parts[1]) : GzipCompressor.DEFAULT_LEVEL);
          }
          break;
        case "auto":
          if (parts.length <= 3) {
            int level = parts.length >= 2 ? Integer.parseInt(parts[1]) : ZstdCompressor.DEFAULT_LEVEL;
            double saving = parts.length == 3
                ? Double.parseDouble(parts[2].replace("%", "")) / 100.0
                : AutoCompressor.DEFAULT_MIN_SAVING;
            return new AutoCompressor(new ZstdCompressor(level), saving);
          }
          break;
        default:
          break;
      }
    } catch (NumberFormatException e) {
      // fall through
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("compression '" + spec + "': " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "compression must be none, zstd[:LEVEL] (-5..-1, 1..19), gzip[:1-9] or auto[:LEVEL[:MIN%]], was '" + spec + "'");
  }
}
