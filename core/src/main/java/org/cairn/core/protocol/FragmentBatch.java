package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.fragment.Fragment;

/**
 * The payload of a PUT: u16 count, then for each fragment u32 length and its serialised bytes
 * (header + payload). Fragments are kept as bytes; the peer verifies each before storing anything.
 */
public final class FragmentBatch {
  public static final int MAX_FRAGMENTS = 1024;

  private FragmentBatch() {}

  public static void encode(List<byte[]> fragments, ByteBuf out) {
    if (fragments.isEmpty() || fragments.size() > MAX_FRAGMENTS) {
      throw new IllegalArgumentException("a batch holds 1.." + MAX_FRAGMENTS + " fragments, was " + fragments.size());
    }
    out.writeShort(fragments.size());
    for (byte[] f : fragments) {
      out.writeInt(f.length);
      out.writeBytes(f);
    }
  }

  /** As {@link #encode}, writing each fragment's header and payload straight into {@code out}. */
  public static void encodeFragments(List<Fragment> fragments, ByteBuf out) {
    if (fragments.isEmpty() || fragments.size() > MAX_FRAGMENTS) {
      throw new IllegalArgumentException("a batch holds 1.." + MAX_FRAGMENTS + " fragments, was " + fragments.size());
    }
    out.writeShort(fragments.size());
    byte[] header = new byte[Fragment.HEADER_SIZE];
    for (Fragment f : fragments) {
      out.writeInt(f.serializedSize());
      f.writeHeader(header);
      out.writeBytes(header);
      out.writeBytes(f.payload());
    }
  }

  public static List<byte[]> decode(ByteBuf in) {
    List<ByteBuf> slices = decodeSlices(in);
    List<byte[]> out = new ArrayList<>(slices.size());
    for (ByteBuf s : slices) {
      out.add(ByteBufUtil.getBytes(s));
    }
    return out;
  }

  /**
   * As {@link #decode}, without copying: each fragment is a slice of {@code in} (not retained), valid
   * while {@code in} is.
   */
  public static List<ByteBuf> decodeSlices(ByteBuf in) {
    if (in.readableBytes() < 2) {
      throw new CorruptedFrameException("truncated fragment batch");
    }
    int n = in.readUnsignedShort();
    if (n == 0 || n > MAX_FRAGMENTS) {
      throw new CorruptedFrameException("fragment batch of " + n + " fragments (1.." + MAX_FRAGMENTS + " allowed)");
    }
    List<ByteBuf> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (in.readableBytes() < 4) {
        throw new CorruptedFrameException("fragment batch truncated at fragment " + i);
      }
      int len = in.readInt();
      if (len < Fragment.HEADER_SIZE || len > Fragment.HEADER_SIZE + Fragment.MAX_PAYLOAD || len > in.readableBytes()) {
        throw new CorruptedFrameException("fragment " + i + " of the batch claims " + len + " bytes, " + in.readableBytes() + " left");
      }
      out.add(in.readSlice(len));
    }
    if (in.isReadable()) {
      throw new CorruptedFrameException(in.readableBytes() + " stray bytes after the fragment batch");
    }
    return out;
  }
}
