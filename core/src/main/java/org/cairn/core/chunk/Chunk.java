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
  private final long address;

  public Chunk(long index, long offset, byte[] data, int length) {
    this(index, offset, data, length, -1);
  }

  /** A chunk whose first byte is memory at {@code address} (-1: not memory, or not known). */
  public Chunk(long index, long offset, byte[] data, int length, long address) {
    if (length < 0 || length > data.length) {
      throw new IllegalArgumentException("chunk length " + length + " outside buffer of " + data.length);
    }
    this.index = index;
    this.offset = offset;
    this.data = data;
    this.length = length;
    this.address = address;
  }

  /** The memory address of the chunk's first byte in a recognised checkpoint format; -1 if none. */
  public long address() {
    return address;
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
