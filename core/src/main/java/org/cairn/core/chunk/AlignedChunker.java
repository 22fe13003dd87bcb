package org.cairn.core.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Fixed-size chunks restarted at every region boundary of a recognised checkpoint format
 * ({@link ImageLayout}): DMTCP images and ELF core files. A chunk never crosses a boundary, so a
 * memory area's data always starts a chunk and its pages land in the same chunks whatever happened
 * to the areas before it; the format's per-checkpoint headers end up in small chunks of their own.
 * An image of no known format is cut exactly as {@link FixedSizeChunker} cuts it. The layout only
 * moves cuts: a wrong or hostile header can cost deduplication, never correctness.
 */
public final class AlignedChunker implements Chunker {
  /** How much of the image's start is read to recognise its format. */
  static final int PEEK = 1 << 20;

  private final PushbackInputStream in;
  private final int chunkSize;
  private final Supplier<byte[]> buffers;
  private final ImageLayout layout;
  private long regionLeft;
  private long index;
  private long offset;
  private boolean done;

  public AlignedChunker(InputStream in, int chunkSize, Supplier<byte[]> buffers) {
    this.chunkSize = ChunkSize.validate(chunkSize);
    this.in = new PushbackInputStream(Objects.requireNonNull(in, "in"), PEEK);
    this.buffers = buffers != null ? buffers : () -> new byte[this.chunkSize];
    ImageLayout detected;
    try {
      byte[] head = this.in.readNBytes(PEEK);
      this.in.unread(head);
      detected = ImageLayout.detect(head, head.length);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("reading the image's first bytes: " + e.getMessage(), e);
    }
    this.layout = detected;
  }

  /** The format recognised: {@code dmtcp}, {@code elf-core} or {@code none}. */
  public String format() {
    return layout.name();
  }

  @Override
  public Chunk next() throws IOException {
    if (done) {
      return null;
    }
    if (regionLeft <= 0) {
      regionLeft = layout.regionAt(offset);
    }
    byte[] buf = buffers.get();
    if (buf.length < chunkSize) {
      throw new IllegalStateException("chunk buffer of " + buf.length + " bytes is smaller than the chunk size " + chunkSize);
    }
    int want = (int) Math.min(chunkSize, regionLeft);
    int n = in.readNBytes(buf, 0, want);
    if (n < want) {
      done = true;
      if (n == 0) {
        return null;
      }
    }
    layout.observe(offset, buf, n);
    Chunk c = new Chunk(index++, offset, buf, n);
    offset += n;
    regionLeft -= n;
    return c;
  }

  @Override
  public long bytesRead() {
    return offset;
  }
}
