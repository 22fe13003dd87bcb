package org.cairn.core.chunk;

import org.cairn.core.config.ByteSize;

/**
 * Valid chunk sizes: powers of two from 64 KiB to 16 MiB. The default comes from measuring dedup
 * ratio and throughput on successive memory images (docs/chunk-size.md).
 */
public final class ChunkSize {
  public static final int MIN = 64 * 1024;
  public static final int MAX = 16 * 1024 * 1024;
  public static final int DEFAULT = 1024 * 1024;

  private ChunkSize() {}

  /** Returns {@code size} if valid, otherwise throws naming the value. */
  public static int validate(long size) {
    if (size < MIN || size > MAX || Long.bitCount(size) != 1) {
      throw new IllegalArgumentException(
          "chunk size must be a power of two from 64KiB to 16MiB, was " + size + " (" + ByteSize.format(size) + ")");
    }
    return (int) size;
  }

  /** Parses e.g. {@code 1MiB} and validates it. */
  public static int parse(String text) {
    return validate(ByteSize.parse(text));
  }
}
