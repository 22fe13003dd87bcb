package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;

/**
 * A chunk held for an app: who holds fragment i ({@code holders.get(i)}, null if none), the bytes
 * of its fragments, how many committed versions reference it, the redundancy it was coded with
 * (e.g. {@code code:4+2}), the compute host that stored it (placement of repairs ranks against it)
 * and each fragment's tag (8 hex digits, {@code Fragment.tag()}): with the chunk id and index it is
 * the fragment's key on its peer. {@code base} (hex, null for most): the chunk this one is coded
 * against ({@code DeltaCodec}); the base holds one reference per chunk coded against it, so it stays
 * while they do.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChunkRecord(List<String> holders, long storedBytes, int refs, String redundancy, String client, List<String> tags,
    String base) {

  ChunkRecord withRefs(int n) {
    return new ChunkRecord(holders, storedBytes, n, redundancy, client, tags, base);
  }

  ChunkRecord withHolder(int index, String peer) {
    List<String> h = new ArrayList<>(holders);
    h.set(index, peer);
    return new ChunkRecord(h, storedBytes, refs, redundancy, client, tags, base);
  }

  /** The base this chunk is coded against, or null. */
  public ChunkId baseId() {
    return base == null ? null : ChunkId.parse(base);
  }

  /** Fragment {@code index}'s tag, or null if the record has none (written before tags existed). */
  public String tag(int index) {
    return tags == null || index >= tags.size() ? null : tags.get(index);
  }

  /** Whether this record says {@code peer} holds the fragment with this index and tag. */
  public boolean assigns(String peer, int index, int tag) {
    String t = tag(index);
    return index < holders.size() && peer.equals(holders.get(index)) && t != null
        && t.equals(org.cairn.core.protocol.FragmentKey.tagHex(tag));
  }

  /** m: pieces needed to rebuild the chunk (all of them if the record predates the redundancy field). */
  public int needed() {
    if (redundancy == null) {
      return holders.size();
    }
    return Redundancy.parse(redundancy).dataFragments();
  }

  /** Bytes of one fragment (all fragments of a chunk are the same size). */
  public long fragmentBytes() {
    return holders.isEmpty() ? 0 : storedBytes / holders.size();
  }

  /** The first byte of a record in its binary form; a record written before it is JSON and starts with '{'. */
  static final byte BINARY = 1;

  /**
   * This record as the chunk index stores it: a version byte, then holders, stored bytes, references,
   * redundancy, client, tags (4 bytes each when all are 8 hex digits) and base (its 32 bytes); strings
   * as u16 length and UTF-8, 0xFFFF for none. About half the JSON's bytes, and no parser: a commit writes
   * one per new chunk and the repair scan reads them all.
   */
  public byte[] encode() {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(64 + 24 * holders.size());
    java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
    try {
      if (holders.size() > 254 || tags != null && tags.size() > 254) {
        throw new IllegalArgumentException("a chunk record of " + holders.size() + " holders");
      }
      out.writeByte(BINARY);
      out.writeByte(holders.size());
      for (String h : holders) {
        string(out, h);
      }
      out.writeLong(storedBytes);
      out.writeInt(refs);
      string(out, redundancy);
      string(out, client);
      out.writeByte(tags == null ? 0xFF : tags.size());
      if (tags != null) {
        boolean hex = tags.stream().allMatch(t -> lowerHex(t, 8));
        out.writeBoolean(hex); // tags are 8 hex digits (Fragment.tag): 4 bytes each
        for (String t : tags) {
          if (hex) {
            out.writeInt(Integer.parseUnsignedInt(t, 16));
          } else {
            string(out, t);
          }
        }
      }
      if (lowerHex(base, 64)) {
        out.writeByte(1); // a chunk id: its 32 bytes
        out.write(HEX.parseHex(base));
      } else {
        out.writeByte(base == null ? 0 : 2);
        if (base != null) {
          string(out, base);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /** A record as {@link #encode} wrote it, or as JSON (records written before the binary form). */
  public static ChunkRecord decode(byte[] value) throws java.io.IOException {
    if (value.length > 0 && value[0] == '{') {
      return org.cairn.core.api.TrackerHttp.JSON.readValue(value, ChunkRecord.class);
    }
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(value);
    try {
      if (in.get() != BINARY) {
        throw new java.io.IOException("a chunk record of an unknown form (first byte " + value[0] + ")");
      }
      int n = in.get() & 0xFF;
      List<String> holders = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        holders.add(string(in));
      }
      long stored = in.getLong();
      int refs = in.getInt();
      String redundancy = string(in);
      String client = string(in);
      int t = in.get() & 0xFF;
      List<String> tags = null;
      if (t != 0xFF) {
        boolean hex = in.get() != 0;
        tags = new ArrayList<>(t);
        for (int i = 0; i < t; i++) {
          tags.add(hex ? HEX.toHexDigits(in.getInt()) : string(in));
        }
      }
      int b = in.get() & 0xFF;
      String base;
      if (b == 0) {
        base = null;
      } else if (b == 1) {
        base = HEX.formatHex(value, in.position(), in.position() + 32);
        in.position(in.position() + 32);
      } else if (b == 2) {
        base = string(in);
      } else {
        throw new java.io.IOException("a chunk record with base form " + b);
      }
      if (in.hasRemaining()) {
        throw new java.io.IOException("a chunk record with " + in.remaining() + " bytes after its end");
      }
      return new ChunkRecord(holders, stored, refs, redundancy, client, tags, base);
    } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new java.io.IOException("a truncated chunk record (" + value.length + " bytes)", e);
    }
  }

  private static final java.util.HexFormat HEX = java.util.HexFormat.of();

  private static boolean lowerHex(String s, int length) {
    if (s == null || s.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
        return false;
      }
    }
    return true;
  }

  private static void string(java.io.DataOutputStream out, String s) throws java.io.IOException {
    if (s == null) {
      out.writeShort(0xFFFF);
      return;
    }
    byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    if (b.length >= 0xFFFF) {
      throw new IllegalArgumentException("a chunk record string of " + b.length + " bytes");
    }
    out.writeShort(b.length);
    out.write(b);
  }

  private static String string(java.nio.ByteBuffer in) {
    int n = in.getShort() & 0xFFFF;
    if (n == 0xFFFF) {
      return null;
    }
    if (n > in.remaining()) {
      throw new java.nio.BufferUnderflowException();
    }
    String s = new String(in.array(), in.position(), n, java.nio.charset.StandardCharsets.UTF_8);
    in.position(in.position() + n);
    return s;
  }
}
