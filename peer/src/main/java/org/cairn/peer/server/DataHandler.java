package org.cairn.peer.server;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's business handler. On connect it sends a CHALLENGE of 32 random bytes; the client
 * must answer AUTH with HMAC-SHA256(token, challenge) before anything else. A wrong or missing proof,
 * a malformed or oversized frame, or a request it does not serve closes the connection with a
 * logged reason (never the token). After AUTH_OK: PING is answered with PONG (fragment requests
 * arrive with the fragment store).
 */
final class DataHandler extends SimpleChannelInboundHandler<Frame> {
  private static final Logger LOG = LoggerFactory.getLogger(DataHandler.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final GridToken token;
  private byte[] challenge;
  private boolean authenticated;

  DataHandler(GridToken token) {
    this.token = token;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    challenge = new byte[32];
    RANDOM.nextBytes(challenge);
    ctx.writeAndFlush(Frame.of(FrameType.CHALLENGE, 0, challenge.clone()));
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
    if (!authenticated) {
      if (frame.type() != FrameType.AUTH) {
        refuse(ctx, frame.requestId(), "authenticate first: expected AUTH, got " + frame.type());
        return;
      }
      byte[] proof = ByteBufUtil.getBytes(frame.payload());
      if (!token.verifyHmac(challenge, proof)) {
        refuse(ctx, frame.requestId(), "authentication failed: wrong grid token");
        return;
      }
      authenticated = true;
      ctx.writeAndFlush(Frame.of(FrameType.AUTH_OK, frame.requestId(), new byte[0]));
      return;
    }
    switch (frame.type()) {
      case PING:
        // the answer takes its own reference to the payload; ours is released by SimpleChannelInboundHandler
        ctx.writeAndFlush(new Frame(FrameType.PONG, frame.requestId(), frame.payload().retainedDuplicate()));
        break;
      default:
        refuse(ctx, frame.requestId(), "unsupported request " + frame.type());
        break;
    }
  }

  private static void refuse(ChannelHandlerContext ctx, int requestId, String reason) {
    LOG.warn("closing data connection from {}: {}", ctx.channel().remoteAddress(), reason);
    ctx.writeAndFlush(Frame.of(FrameType.ERROR, requestId, reason.getBytes(StandardCharsets.UTF_8)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.warn("closing data connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
