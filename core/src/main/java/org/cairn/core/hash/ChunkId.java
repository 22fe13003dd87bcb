package org.cairn.core.hash;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** The content id of a chunk: the SHA-256 of its plaintext bytes. Immutable; JSON form is hex. */
public final class ChunkId implements Comparable<ChunkId> {
  public static final int LENGTH = 32;

  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  });

  private final byte[] bytes;
  private final int hash;

  private ChunkId(byte[] bytes) {
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
  }

  /** Hashes {@code data[offset, offset+length)}. */
  public static ChunkId of(byte[] data, int offset, int length) {
    MessageDigest md = SHA256.get();
    md.update(data, offset, length);
    return new ChunkId(md.digest());
  }

  public static ChunkId of(byte[] data) {
    return of(data, 0, data.length);
  }

  /** Wraps 32 raw bytes (copied). */
  public static ChunkId fromBytes(byte[] raw) {
    if (raw == null || raw.length != LENGTH) {
      throw new IllegalArgumentException("a chunk id has 32 bytes, got " + (raw == null ? "none" : raw.length));
    }
    return new ChunkId(raw.clone());
  }

  /** Reads 32 raw bytes at {@code offset}. */
  public static ChunkId fromBytes(byte[] raw, int offset) {
    return new ChunkId(Arrays.copyOfRange(raw, offset, offset + LENGTH));
  }

  @JsonCreator
  public static ChunkId parse(String hex) {
    if (hex == null || hex.length() != 2 * LENGTH) {
      throw new IllegalArgumentException("a chunk id is 64 hex digits, got '" + hex + "'");
    }
    try {
      return new ChunkId(HexFormat.of().parseHex(hex));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a chunk id is 64 hex digits, got '" + hex + "'", e);
    }
  }

  /** A copy of the 32 raw bytes. */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /** Writes the 32 raw bytes into {@code dst} at {@code offset}. */
  public void copyTo(byte[] dst, int offset) {
    System.arraycopy(bytes, 0, dst, offset, LENGTH);
  }

  /** The first 8 bytes, big-endian (a key for compact tables, which should mix it: a catalog record's id starts with a fixed tag). */
  public long leading64() {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (bytes[i] & 0xFF);
    }
    return v;
  }

  /** True if this id equals the 32 bytes at {@code offset} of {@code raw}. */
  public boolean matches(byte[] raw, int offset) {
    return Arrays.equals(bytes, 0, LENGTH, raw, offset, offset + LENGTH);
  }

  @JsonValue
  public String hex() {
    return HexFormat.of().formatHex(bytes);
  }

  /** First 12 hex digits, for logs and messages. */
  public String shortHex() {
    return hex().substring(0, 12);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChunkId && Arrays.equals(bytes, ((ChunkId) o).bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public int compareTo(ChunkId o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  @Override
  public String toString() {
    return hex();
  }
}
