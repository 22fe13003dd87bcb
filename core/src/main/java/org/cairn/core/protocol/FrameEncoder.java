package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Writes {@link Frame}s. A large direct payload (a client's PUT batch) is passed on behind its
 * header as it is, so the transport writes both with one gathering write and the payload's bytes
 * are not copied again; any other frame is copied with its header into one buffer (a heap payload
 * would be copied to a direct buffer by the transport anyway). MessageToMessageEncoder releases
 * each frame after encoding it; the payload passed on holds its own reference.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToMessageEncoder<Frame> {
  /** Payloads at least this large, and direct, are not copied. */
  static final int PASS_THROUGH_BYTES = 64 * 1024;

  @Override
  protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
    ByteBuf payload = frame.payload();
    int length = payload.readableBytes();
    if (payload.isDirect() && length >= PASS_THROUGH_BYTES) {
      ByteBuf header = ctx.alloc().ioBuffer(Frame.HEADER);
      frame.encodeHeader(header);
      out.add(header);
      out.add(payload.retainedSlice());
      return;
    }
    ByteBuf whole = ctx.alloc().ioBuffer(Frame.HEADER + length);
    frame.encode(whole);
    out.add(whole);
  }
}
