package org.cairn.core.chunk;

import java.io.IOException;

/** Cuts an image into chunks, in order. Not thread-safe. */
public interface Chunker {
  /** The next chunk, or {@code null} at the end of the image. */
  Chunk next() throws IOException;

  /** Bytes returned so far. */
  long bytesRead();
}
