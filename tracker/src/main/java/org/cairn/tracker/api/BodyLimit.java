package org.cairn.tracker.api;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import org.cairn.tracker.api.call.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a request whose body is larger than its endpoint takes before the body is read: by the
 * head's {@code Content-Length}, or by the chunks received so far of a chunked body. The limit comes
 * from {@link RequestHandler#limit} (the endpoint's own for a known caller; a small one, answered 401,
 * for a caller the tracker does not know), so nobody makes the tracker gather a large body it will not
 * take. A refused request is answered and its connection closed; what else it sends is dropped. The close
 * lingers ({@link #LINGER_MILLIS}, at most {@link #LINGER_BYTES} dropped): a client still sending the body it announced
 * reads what the tracker answered,
 * where closing a socket with unread bytes at once would reset the connection and lose the answer on the client's
 * side. One instance per connection (it keeps the current request's count).
 */
final class BodyLimit extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(BodyLimit.class);

  private static final RequestHandler.Limit SMALL = new RequestHandler.Limit(RequestHandler.HEAD_ONLY_BODY, 413,
      "request body is larger than its Content-Length");

  /** How long a refused connection keeps reading (and dropping) what its client sends before it is closed. */
  static final long LINGER_MILLIS = 2_000;
  /** What a refused connection drops before it is closed at once: a stranger gets no more reading than this out of it. */
  static final long LINGER_BYTES = 16L << 20;

  private final RequestHandler api;
  private RequestHandler.Limit limit;
  private long seen;
  private boolean refused;
  private long dropped;

  BodyLimit(RequestHandler api) {
    this.api = api;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (refused) {
      if (msg instanceof HttpContent c) {
        dropped += c.content().readableBytes();
      }
      ReferenceCountUtil.release(msg);
      if (dropped > LINGER_BYTES) {
        ctx.close();
      }
      return;
    }
    if (msg instanceof HttpRequest req && req.decoderResult().isSuccess()) {
      seen = 0;
      long declared;
      try {
        declared = HttpUtil.getContentLength(req, -1L);
        // a small body declared up front needs no judging (no credential check on the event loop for most calls)
        limit = declared >= 0 && declared <= RequestHandler.HEAD_ONLY_BODY ? SMALL
            : api.limit(req.method().name(), new QueryStringDecoder(req.uri()).path(), req.headers().get(HttpHeaderNames.AUTHORIZATION));
      } catch (IllegalArgumentException e) {
        refuse(ctx, msg, new RequestHandler.Limit(0, 400, "malformed HTTP request: " + e.getMessage()));
        return;
      }
      if (declared > limit.maxBytes()) {
        refuse(ctx, msg, limit);
        return;
      }
    }
    if (msg instanceof HttpContent c && limit != null) {
      seen += c.content().readableBytes();
      if (seen > limit.maxBytes()) {
        refuse(ctx, msg, limit);
        return;
      }
      if (c instanceof LastHttpContent) {
        limit = null;
      }
    }
    ctx.fireChannelRead(msg);
  }

  private void refuse(ChannelHandlerContext ctx, Object msg, RequestHandler.Limit l) {
    ReferenceCountUtil.release(msg);
    refused = true;
    LOG.debug("refusing a request from {}: {}", ctx.channel().remoteAddress(), l.message());
    Response r = Response.error(l.status(), l.message());
    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(l.status()),
        Unpooled.wrappedBuffer(r.body()));
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
    res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length);
    res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    if (l.status() == 401) {
      res.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"cairn\"");
    }
    if (ctx.pipeline().get(HttpServerKeepAliveHandler.class) != null) {
      ctx.pipeline().remove(HttpServerKeepAliveHandler.class); // it would close the connection as soon as the answer is out
    }
    ctx.writeAndFlush(res).addListener((ChannelFutureListener) written -> {
      if (!written.isSuccess()) {
        written.channel().close();
        return;
      }
      // a lingering close: the answer is out; what the client still sends is dropped (refused) until it closes or this runs
      written.channel().eventLoop().schedule(() -> written.channel().close(), LINGER_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
    });
  }
}
