package org.cairn.core.chunk;

import java.io.InputStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * How an image is cut into chunks. {@code fixed}: every chunk {@code S} bytes (stdchk's
 * FsCH). {@code aligned}: fixed-size chunks restarted at each memory area of a recognised
 * checkpoint format (DMTCP images, ELF core files, a CRIU dump's pages in a directory's tar, cut
 * along its pagemap), with the format's headers in chunks of their own, so an area's pages land
 * in the same chunks whatever happened to earlier areas; other files are cut as fixed. {@code cdc}:
 * content-defined (FastCDC), chunks of {@code S/4 .. 2S}, average about {@code S}, which
 * re-synchronise after any insertion.
 */
public enum Chunking {
  FIXED("fixed"),
  ALIGNED("aligned"),
  CDC("cdc");

  /** What {@code cairn store} uses unless told otherwise (docs/chunk-size.md has the measurements). */
  public static final Chunking DEFAULT = ALIGNED;

  private final String spec;

  Chunking(String spec) {
    this.spec = spec;
  }

  public String spec() {
    return spec;
  }

  /** The largest chunk this chunking makes with nominal size {@code chunkSize}: the buffers' size. */
  public int maxChunk(int chunkSize) {
    return this == CDC ? CdcChunker.maxFor(chunkSize) : chunkSize;
  }

  /**
   * A chunker over {@code in}.
   *
   * @param buffers supplies a buffer of at least {@link #maxChunk} bytes per chunk (may block)
   */
  public Chunker chunker(InputStream in, int chunkSize, Supplier<byte[]> buffers) {
    switch (this) {
      case FIXED:
        return new FixedSizeChunker(in, chunkSize, buffers);
      case ALIGNED:
        return new AlignedChunker(in, chunkSize, buffers);
      case CDC:
        return new CdcChunker(in, chunkSize, buffers);
      default:
        throw new IllegalStateException(spec);
    }
  }

  /** Parses {@code fixed}, {@code aligned} or {@code cdc}. */
  public static Chunking parse(String text) {
    for (Chunking c : values()) {
      if (c.spec.equals(text == null ? "" : text.toLowerCase(Locale.ROOT))) {
        return c;
      }
    }
    throw new IllegalArgumentException("chunking must be fixed, aligned or cdc, was '" + text + "'");
  }
}
