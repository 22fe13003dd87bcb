package org.cairn.core.compress;

/** A compressed payload: the bytes {@code data[0, length)} and how they were compressed. */
public final class Compressed {
  private final CompressionType type;
  private final byte[] data;
  private final int length;

  public Compressed(CompressionType type, byte[] data, int length) {
    this.type = type;
    this.data = data;
    this.length = length;
  }

  public CompressionType type() {
    return type;
  }

  /** Backing array; only the first {@link #length()} bytes are the payload. */
  public byte[] data() {
    return data;
  }

  public int length() {
    return length;
  }
}
