package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/** Writes {@link Frame}s; MessageToByteEncoder releases each frame after encoding it. */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToByteEncoder<Frame> {
  @Override
  protected void encode(ChannelHandlerContext ctx, Frame frame, ByteBuf out) {
    frame.encode(out);
  }

  @Override
  protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Frame frame, boolean preferDirect) {
    return ctx.alloc().ioBuffer(Frame.HEADER + frame.payload().readableBytes());
  }
}
