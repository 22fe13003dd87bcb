package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.cairn.core.hash.ChunkId;

/** Which fragment: chunk id and fragment index. Wire form: 32 id bytes, 1 index byte. */
public final class FragmentKey implements Comparable<FragmentKey> {
  public static final int SIZE = ChunkId.LENGTH + 1;

  private final ChunkId chunkId;
  private final int index;

  public FragmentKey(ChunkId chunkId, int index) {
    this.chunkId = Objects.requireNonNull(chunkId, "chunkId");
    if (index < 0 || index > 255) {
      throw new IllegalArgumentException("fragment index must be 0..255, was " + index);
    }
    this.index = index;
  }

  public ChunkId chunkId() {
    return chunkId;
  }

  public int index() {
    return index;
  }

  /** The 33-byte form, also the peer store's key (so keys sort by chunk, then index). */
  public byte[] toBytes() {
    byte[] b = new byte[SIZE];
    chunkId.copyTo(b, 0);
    b[ChunkId.LENGTH] = (byte) index;
    return b;
  }

  public static FragmentKey fromBytes(byte[] b) {
    if (b.length != SIZE) {
      throw new IllegalArgumentException("a fragment key has " + SIZE + " bytes, got " + b.length);
    }
    return new FragmentKey(ChunkId.fromBytes(b, 0), b[ChunkId.LENGTH] & 0xFF);
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
    return c != 0 ? c : Integer.compare(index, o.index);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FragmentKey && ((FragmentKey) o).chunkId.equals(chunkId) && ((FragmentKey) o).index == index;
  }

  @Override
  public int hashCode() {
    return chunkId.hashCode() * 31 + index;
  }

  @Override
  public String toString() {
    return chunkId.shortHex() + "#" + index;
  }
}
