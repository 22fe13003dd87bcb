package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import java.util.Objects;

/**
 * One data-plane message. Wire form (big-endian), 12-byte header then the payload:
 *
 * <pre>
 *  0  2  magic 0xCA1F
 *  2  1  protocol version (1)
 *  3  1  type ({@link FrameType})
 *  4  4  request id (echoed in the answer)
 *  8  4  payload length (at most {@link #MAX_PAYLOAD})
 * 12  .. payload
 * </pre>
 *
 * A frame owns its payload buffer: whoever consumes a frame releases it.
 */
public final class Frame extends AbstractReferenceCounted {
  public static final int MAGIC = 0xCA1F;
  public static final int VERSION = 1;
  public static final int HEADER = 12;
  /** A batch of fragments of up to 16 MiB chunks plus headers fits; anything larger is refused. */
  public static final int MAX_PAYLOAD = 32 * 1024 * 1024;

  private final FrameType type;
  private final int requestId;
  private final ByteBuf payload;

  public Frame(FrameType type, int requestId, ByteBuf payload) {
    this.type = Objects.requireNonNull(type, "type");
    this.requestId = requestId;
    this.payload = Objects.requireNonNull(payload, "payload");
    if (payload.readableBytes() > MAX_PAYLOAD) {
      payload.release();
      throw new IllegalArgumentException("payload of " + payload.readableBytes() + " bytes exceeds " + MAX_PAYLOAD);
    }
  }

  public static Frame of(FrameType type, int requestId, byte[] payload) {
    return new Frame(type, requestId, Unpooled.wrappedBuffer(payload));
  }

  public FrameType type() {
    return type;
  }

  public int requestId() {
    return requestId;
  }

  /** The payload; valid until this frame is released. */
  public ByteBuf payload() {
    return payload;
  }

  /** Writes header and payload into {@code out} (the payload's reader index is not moved). */
  public void encode(ByteBuf out) {
    encodeHeader(out);
    out.writeBytes(payload, payload.readerIndex(), payload.readableBytes());
  }

  /** Writes the header alone, for a payload that follows it unchanged. */
  public void encodeHeader(ByteBuf out) {
    out.writeShort(MAGIC);
    out.writeByte(VERSION);
    out.writeByte(type.id());
    out.writeInt(requestId);
    out.writeInt(payload.readableBytes());
  }

  /**
   * Reads one whole frame from {@code in} (exactly header + payload, as the frame decoder cuts it);
   * the payload is a retained slice of {@code in}.
   *
   * @throws CorruptedFrameException on a wrong magic, version, type or length
   */
  public static Frame decode(ByteBuf in) {
    if (in.readableBytes() < HEADER) {
      throw new CorruptedFrameException("frame shorter than its header: " + in.readableBytes() + " bytes");
    }
    int magic = in.readUnsignedShort();
    if (magic != MAGIC) {
      throw new CorruptedFrameException(String.format("bad magic 0x%04x", magic));
    }
    int version = in.readUnsignedByte();
    if (version != VERSION) {
      throw new CorruptedFrameException("unsupported protocol version " + version);
    }
    int typeId = in.readUnsignedByte();
    FrameType type = FrameType.fromId(typeId);
    if (type == null) {
      throw new CorruptedFrameException("unknown frame type " + typeId);
    }
    int requestId = in.readInt();
    int length = in.readInt();
    if (length < 0 || length > MAX_PAYLOAD || length != in.readableBytes()) {
      throw new CorruptedFrameException("frame length " + length + " does not match its " + in.readableBytes() + " payload bytes");
    }
    return new Frame(type, requestId, in.readRetainedSlice(length));
  }

  @Override
  protected void deallocate() {
    payload.release();
  }

  @Override
  public ReferenceCounted touch(Object hint) {
    payload.touch(hint);
    return this;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Frame && ((Frame) o).type == type && ((Frame) o).requestId == requestId && ((Frame) o).payload.equals(payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, requestId, payload);
  }

  @Override
  public String toString() {
    return "Frame{" + type + " #" + requestId + " " + payload.readableBytes() + "B}";
  }
}
