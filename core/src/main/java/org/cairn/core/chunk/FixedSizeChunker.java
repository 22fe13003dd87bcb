package org.cairn.core.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Cuts a stream into fixed-size chunks (stdchk's FsCH): chunk i is bytes [i*S, (i+1)*S). Reads each
 * chunk fully, so short reads of pipes and sockets do not change the cut. Not thread-safe.
 */
public final class FixedSizeChunker implements Chunker {
  private final InputStream in;
  private final int chunkSize;
  private final java.util.function.Supplier<byte[]> buffers;
  private long index;
  private long offset;
  private boolean done;

  public FixedSizeChunker(InputStream in, int chunkSize) {
    this(in, chunkSize, null);
  }

  /**
   * @param buffers supplies the buffer for each chunk (at least {@code chunkSize} bytes; may block,
   *     which is how a pipeline bounds its memory); {@code null} allocates a new one per chunk
   */
  public FixedSizeChunker(InputStream in, int chunkSize, java.util.function.Supplier<byte[]> buffers) {
    this.in = Objects.requireNonNull(in, "in");
    this.chunkSize = ChunkSize.validate(chunkSize);
    this.buffers = buffers != null ? buffers : () -> new byte[this.chunkSize];
  }

  /** The next chunk, or {@code null} at the end of the stream. */
  @Override
  public Chunk next() throws IOException {
    if (done) {
      return null;
    }
    byte[] buf = buffers.get();
    if (buf.length < chunkSize) {
      throw new IllegalStateException("chunk buffer of " + buf.length + " bytes is smaller than the chunk size " + chunkSize);
    }
    int n = in.readNBytes(buf, 0, chunkSize);
    if (n < chunkSize) {
      done = true;
      if (n == 0) {
        return null;
      }
    }
    Chunk c = new Chunk(index++, offset, buf, n);
    offset += n;
    return c;
  }

  public int chunkSize() {
    return chunkSize;
  }

  /** Bytes returned so far. */
  @Override
  public long bytesRead() {
    return offset;
  }
}
