package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Cuts the byte stream into frames, without copying (see the constructor), by the length at
 * offset 8 (hard maximum: header + {@link Frame#MAX_PAYLOAD}; larger lengths raise
 * {@code TooLongFrameException} at once, before any payload is buffered) and parses each into a
 * {@link Frame}. Bad frames raise
 * {@code CorruptedFrameException}; the handler closes the connection.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {
  public FrameDecoder() {
    super(Frame.HEADER + Frame.MAX_PAYLOAD, 8, 4, 0, 0, true);
    // A PUT batch is up to 4 MiB: merging the socket's reads into one buffer grows it by copying, and
    // past the pool's chunk size allocates (and zeroes) fresh direct memory for every frame. A
    // composite of the reads keeps each byte where the socket put it; a frame is a slice of them.
    setCumulator(COMPOSITE_CUMULATOR);
  }

  @Override
  protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
    ByteBuf whole = (ByteBuf) super.decode(ctx, in);
    if (whole == null) {
      return null;
    }
    try {
      return Frame.decode(whole);
    } finally {
      whole.release();
    }
  }
}
