package org.cairn.core.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Cuts a stream into fixed-size chunks (stdchk's FsCH): chunk i is bytes [i*S, (i+1)*S). Reads each
 * chunk fully, so short reads of pipes and sockets do not change the cut. Not thread-safe.
 */
public final class FixedSizeChunker {
  private final InputStream in;
  private final int chunkSize;
  private long index;
  private long offset;
  private boolean done;

  public FixedSizeChunker(InputStream in, int chunkSize) {
    this.in = Objects.requireNonNull(in, "in");
    this.chunkSize = ChunkSize.validate(chunkSize);
  }

  /** The next chunk in a new buffer, or {@code null} at the end of the stream. */
  public Chunk next() throws IOException {
    if (done) {
      return null;
    }
    byte[] buf = new byte[chunkSize];
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
  public long bytesRead() {
    return offset;
  }
}
