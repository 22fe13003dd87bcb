package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.cairn.core.hash.ChunkId;

/**
 * Which fragment: chunk id, fragment index and tag (the fragment's header CRC, see
 * {@code Fragment.tag()}). The tag tells apart pieces of the same chunk and index made with
 * different redundancy or compression (dedup is per app, so two apps may store one chunk two ways).
 * Wire form: 32 id bytes, 1 index byte, 4 tag bytes (big-endian).
 */
public final class FragmentKey implements Comparable<FragmentKey> {
  public static final int SIZE = ChunkId.LENGTH + 1 + 4;

  private final ChunkId chunkId;
  private final int index;
  private final int tag;

  public FragmentKey(ChunkId chunkId, int index, int tag) {
    this.chunkId = Objects.requireNonNull(chunkId, "chunkId");
    if (index < 0 || index > 255) {
      throw new IllegalArgumentException("fragment index must be 0..255, was " + index);
    }
    this.index = index;
    this.tag = tag;
  }

  /** The key of a fragment. */
  public static FragmentKey of(org.cairn.core.fragment.Fragment f) {
    return new FragmentKey(f.chunkId(), f.index(), f.tag());
  }

  public int tag() {
    return tag;
  }

  /** The tag as 8 hex digits (the form JSON carries). */
  public static String tagHex(int tag) {
    return java.util.HexFormat.of().toHexDigits(tag); // 8 lowercase digits; String.format parsed its pattern at every call (a store's 1,000 pieces)
  }

  /** Parses 8 hex digits. */
  public static int parseTag(String hex) {
    if (hex == null || hex.length() != 8) {
      throw new IllegalArgumentException("a fragment tag is 8 hex digits, was '" + hex + "'");
    }
    return Integer.parseUnsignedInt(hex, 16);
  }

  public ChunkId chunkId() {
    return chunkId;
  }

  public int index() {
    return index;
  }

  /** The 37-byte form, also the peer store's key (so keys sort by chunk, then index, then tag). */
  public byte[] toBytes() {
    byte[] b = new byte[SIZE];
    chunkId.copyTo(b, 0);
    b[ChunkId.LENGTH] = (byte) index;
    java.nio.ByteBuffer.wrap(b, ChunkId.LENGTH + 1, 4).putInt(tag);
    return b;
  }

  public static FragmentKey fromBytes(byte[] b) {
    if (b.length != SIZE) {
      throw new IllegalArgumentException("a fragment key has " + SIZE + " bytes, got " + b.length);
    }
    return new FragmentKey(ChunkId.fromBytes(b, 0), b[ChunkId.LENGTH] & 0xFF, java.nio.ByteBuffer.wrap(b, ChunkId.LENGTH + 1, 4).getInt());
  }

  public void encode(ByteBuf out) {
    out.writeBytes(toBytes());
  }

  public static FragmentKey decode(ByteBuf in) {
    if (in.readableBytes() < SIZE) {
      throw new CorruptedFrameException("truncated fragment key: " + in.readableBytes() + " bytes");
    }
    byte[] b = new byte[SIZE];
    in.readBytes(b);
    return fromBytes(b);
  }

  /** u32 count, then the keys. */
  public static void encodeList(List<FragmentKey> keys, ByteBuf out) {
    out.writeInt(keys.size());
    for (FragmentKey k : keys) {
      k.encode(out);
    }
  }

  public static List<FragmentKey> decodeList(ByteBuf in) {
    if (in.readableBytes() < 4) {
      throw new CorruptedFrameException("truncated key list");
    }
    int n = in.readInt();
    if (n < 0 || (long) n * SIZE != in.readableBytes()) {
      throw new CorruptedFrameException("key list claims " + n + " keys in " + in.readableBytes() + " bytes");
    }
    List<FragmentKey> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(decode(in));
    }
    return out;
  }

  @Override
  public int compareTo(FragmentKey o) {
    int c = chunkId.compareTo(o.chunkId);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(index, o.index);
    return c != 0 ? c : Integer.compareUnsigned(tag, o.tag);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FragmentKey && ((FragmentKey) o).chunkId.equals(chunkId) && ((FragmentKey) o).index == index
        && ((FragmentKey) o).tag == tag;
  }

  @Override
  public int hashCode() {
    return (chunkId.hashCode() * 31 + index) * 31 + tag;
  }

  @Override
  public String toString() {
    return chunkId.shortHex() + "#" + index + "/" + tagHex(tag);
  }
}
