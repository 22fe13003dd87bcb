package org.cairn.core.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Fixed-size chunks restarted wherever a recognised checkpoint format starts a memory area
 * ({@link ImageLayout}): each mapping of a DMTCP image, each segment of an ELF core file. A chunk
 * never crosses such a start, so an area's data always starts a chunk and its pages land in the same
 * chunks whatever happened to the areas before it; the per-checkpoint headers end up in chunks of
 * their own.
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
      detected = ImageLayout.detect(head, head.length, this.chunkSize);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("reading the image's first bytes: " + e.getMessage(), e);
    }
    this.layout = detected;
  }

  /** The format recognised: {@code dmtcp}, {@code elf-core} or {@code none}. */
  public String format() {
    return layout.name();
  }

  /**
   * Fills a chunk with regions until it is full, the image ends, or a region that must start a
   * chunk comes next ({@link ImageLayout#startsChunk}: an ELF segment, a DMTCP mapping). A region
   * that does not fit continues in the next chunk.
   */
  @Override
  public Chunk next() throws IOException {
    if (done) {
      return null;
    }
    byte[] buf = buffers.get();
    if (buf.length < chunkSize) {
      throw new IllegalStateException("chunk buffer of " + buf.length + " bytes is smaller than the chunk size " + chunkSize);
    }
    int filled = 0;
    long address = layout.addressAt(offset);
    while (filled < chunkSize) {
      long pos = offset + filled;
      boolean regionStart = regionLeft <= 0;
      if (regionStart) {
        regionLeft = layout.regionAt(pos);
        if (filled > 0 && regionLeft > chunkSize - filled && layout.inspects(pos)) {
          regionLeft = 0;
          break; // a header to inspect that does not fit: it starts the next chunk
        }
      }
      boolean inspects = regionStart && filled > 0 && layout.inspects(pos);
      if (regionStart && filled > 0 && !inspects && layout.startsChunk(pos, buf, filled, 0)) {
        regionLeft = 0;
        break; // decided by the offset alone, before reading the region: nothing to push back
      }
      int want = (int) Math.min(chunkSize - filled, regionLeft);
      int n = in.readNBytes(buf, filled, want);
      if (n == 0) {
        done = true;
        break;
      }
      if (inspects && layout.startsChunk(pos, buf, filled, n)) {
        in.unread(buf, filled, n); // a header that fits (at most a few KiB): it starts the next chunk
        regionLeft = 0;
        break;
      }
      layout.observe(pos, buf, filled, n);
      filled += n;
      regionLeft -= n;
      if (n < want) {
        done = true;
        break;
      }
    }
    if (filled == 0) {
      return null;
    }
    if (address < 0) {
      address = layout.addressAt(offset); // a chunk that starts with an area header, seen while it filled
    }
    Chunk c = new Chunk(index++, offset, buf, filled, address);
    offset += filled;
    return c;
  }

  @Override
  public long bytesRead() {
    return offset;
  }
}
