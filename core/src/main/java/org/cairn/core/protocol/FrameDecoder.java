package org.cairn.core.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;

/**
 * Cuts the byte stream into frames, without copying (see the constructor), by the length at
 * offset 8 (hard maximum: header + {@link Frame#MAX_PAYLOAD}; larger lengths raise
 * {@code TooLongFrameException} at once, before any payload is buffered) and parses each into a
 * {@link Frame}. Bad frames raise
 * {@code CorruptedFrameException}; the handler closes the connection.
 *
 * <p>A server's decoder starts {@linkplain #limitedTo limited}: until the connection has
 * authenticated, a frame whose length field exceeds a small limit (an AUTH frame's size with margin)
 * is refused from its header alone, so a stranger who has proved nothing cannot make the server
 * buffer megabytes; {@link #lift} restores the full limit once the connection is authenticated.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {
  /** Payload limit of a connection not yet authenticated: an AUTH's 32 bytes, with a wide margin. */
  public static final int PRE_AUTH_PAYLOAD = 64 * 1024;

  /** The payload limit now in force (at most {@link Frame#MAX_PAYLOAD}); only the channel's event loop touches it. */
  private int limit;

  /** A decoder that takes frames up to {@link Frame#MAX_PAYLOAD} from the start (the connecting side). */
  public FrameDecoder() {
    this(Frame.MAX_PAYLOAD);
  }

  private FrameDecoder(int limit) {
    super(Frame.HEADER + Frame.MAX_PAYLOAD, 8, 4, 0, 0, true);
    if (limit < 0 || limit > Frame.MAX_PAYLOAD) {
      throw new IllegalArgumentException("a payload limit is 0.." + Frame.MAX_PAYLOAD + " bytes, was " + limit);
    }
    this.limit = limit;
    // A PUT batch is up to 4 MiB: merging the socket's reads into one buffer grows it by copying, and
    // past the pool's chunk size allocates (and zeroes) fresh direct memory for every frame. A
    // composite of the reads keeps each byte where the socket put it; a frame is a slice of them.
    setCumulator(COMPOSITE_CUMULATOR);
  }

  /** A decoder that refuses payloads over {@code maxPayload} bytes until {@link #lift} (the serving side, before AUTH). */
  public static FrameDecoder limitedTo(int maxPayload) {
    return new FrameDecoder(maxPayload);
  }

  /** Takes frames up to {@link Frame#MAX_PAYLOAD} from now on (the connection has authenticated). */
  public void lift() {
    limit = Frame.MAX_PAYLOAD;
  }

  /** The payload limit now in force. */
  public int limit() {
    return limit;
  }

  @Override
  protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
    if (limit < Frame.MAX_PAYLOAD && in.readableBytes() >= Frame.HEADER) {
      long length = in.getUnsignedInt(in.readerIndex() + 8);
      if (length > limit) {
        in.skipBytes(in.readableBytes()); // the connection is closed: nothing after this is read
        throw new TooLongFrameException("a frame of " + length + " bytes before authentication (at most " + limit + ")");
      }
    }
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
