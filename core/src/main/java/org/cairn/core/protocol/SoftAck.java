package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.cairn.core.CorruptDataException;

/**
 * The answer to a {@code PUT_SOFT}: {@code count} fragments written, durable once the peer reports
 * soft write number {@code seq} durable under boot id {@code boot} (its heartbeat does). Payload:
 * u32 count, u64 boot, u64 seq.
 */
public record SoftAck(int count, long boot, long seq) {
  public static final int SIZE = 20;

  public ByteBuf encode() {
    return Unpooled.buffer(SIZE).writeInt(count).writeLong(boot).writeLong(seq);
  }

  /** Reads an answer's payload (its reader index moves). */
  public static SoftAck decode(ByteBuf p) throws CorruptDataException {
    if (p.readableBytes() != SIZE) {
      throw new CorruptDataException("a PUT_SOFT_OK has " + SIZE + " bytes, this one " + p.readableBytes());
    }
    return new SoftAck(p.readInt(), p.readLong(), p.readLong());
  }
}
