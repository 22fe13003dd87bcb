package org.cairn.core.chunk;

/**
 * One fixed-size piece of an image: its position and its plaintext. The last chunk of an image may
 * be shorter. {@code data} may be larger than {@code length}; only the first {@code length} bytes count.
 */
public final class Chunk {
  private final long index;
  private final long offset;
  private final byte[] data;
  private final int length;

  public Chunk(long index, long offset, byte[] data, int length) {
    if (length < 0 || length > data.length) {
      throw new IllegalArgumentException("chunk length " + length + " outside buffer of " + data.length);
    }
    this.index = index;
    this.offset = offset;
    this.data = data;
    this.length = length;
  }

  public long index() {
    return index;
  }

  public long offset() {
    return offset;
  }

  /** The buffer holding the chunk; not copied. */
  public byte[] data() {
    return data;
  }

  public int length() {
    return length;
  }
}
