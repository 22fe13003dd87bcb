package org.cairn.sim.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * One kept-alive connection to the tracker and the calls queued for it, one in flight at a time (no pipelining: the
 * tracker answers a connection's requests in order only if it gets them one by one). Everything runs on the lane's
 * event loop. A connection the tracker closes is opened again for the next call; the call in flight fails.
 */
final class Lane {
  /** A call waiting for, or on, the connection. */
  record Pending(HttpMethod method, String path, String bearer, byte[] json, CompletableFuture<Answer> answer, long[] sentAt) {}

  private final EventLoop loop;
  private final Bootstrap bootstrap;
  private final String hostHeader;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private Channel channel;
  private Pending inFlight;
  private boolean connecting;
  private boolean closing;
  /** Why the connection last failed, for the message of the call it took with it. */
  private Throwable lastCause;

  Lane(EventLoop loop, Bootstrap bootstrap, String hostHeader) {
    this.loop = loop;
    this.bootstrap = bootstrap;
    this.hostHeader = hostHeader;
  }

  EventLoop loop() {
    return loop;
  }

  void submit(Pending p) {
    loop.execute(() -> {
      queue.add(p);
      pump();
    });
  }

  /** Stops taking calls: those queued fail, and no connection is opened again. */
  void close() {
    loop.execute(() -> {
      closing = true;
      IOException e = new IOException("the simulator is stopping");
      while (!queue.isEmpty()) {
        queue.poll().answer().completeExceptionally(e);
      }
      if (channel != null) {
        channel.close();
      }
    });
  }

  private void pump() {
    if (inFlight != null || connecting || closing || queue.isEmpty()) {
      return;
    }
    if (channel == null || !channel.isActive()) {
      connect();
      return;
    }
    inFlight = queue.poll();
    inFlight.sentAt()[0] = System.nanoTime();
    channel.writeAndFlush(request(inFlight)).addListener(f -> {
      if (!f.isSuccess()) {
        fail(new IOException("write to the tracker failed: " + f.cause()));
      }
    });
  }

  private FullHttpRequest request(Pending p) {
    byte[] body = p.json() == null ? new byte[0] : p.json();
    FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, p.method(), p.path(), Unpooled.wrappedBuffer(body));
    r.headers().set(HttpHeaderNames.HOST, hostHeader).set(HttpHeaderNames.AUTHORIZATION, "Bearer " + p.bearer())
        .set(HttpHeaderNames.ACCEPT, HttpHeaderValues.APPLICATION_JSON).set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE)
        .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
    if (p.json() != null) {
      r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
    }
    return r;
  }

  private void connect() {
    connecting = true;
    bootstrap.clone().group(loop).handler(new LaneInitializer(this)).connect().addListener(f -> {
      connecting = false;
      if (f.isSuccess()) {
        channel = ((io.netty.channel.ChannelFuture) f).channel();
        channel.closeFuture().addListener(c -> loop.execute(this::closed));
        pump();
      } else {
        IOException e = new IOException("cannot connect to the tracker: " + f.cause().getMessage());
        while (!queue.isEmpty()) {
          queue.poll().answer().completeExceptionally(e);
        }
      }
    });
  }

  private void closed() {
    channel = null;
    if (inFlight != null) {
      fail(new IOException("the tracker closed the connection before answering"
          + (lastCause == null ? "" : " (" + lastCause.getClass().getSimpleName() + ": " + lastCause.getMessage() + ")")));
    }
    pump();
  }

  private void fail(IOException e) {
    Pending p = inFlight;
    inFlight = null;
    if (p != null) {
      p.answer().completeExceptionally(e);
    }
    if (channel != null) {
      channel.close();
    }
  }

  /** The handler of one connection (a new one for each: a handler instance is in one pipeline only). */
  SimpleChannelInboundHandler<FullHttpResponse> handler() {
    return new SimpleChannelInboundHandler<>(false) {
      @Override
      protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse res) {
        answered(res);
      }

      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failed(cause);
      }
    };
  }

  private void answered(FullHttpResponse res) {
    try {
      Pending p = inFlight;
      inFlight = null;
      if (p != null) {
        p.answer().complete(new Answer(res.status().code(), ByteBufUtil.getBytes(res.content()), System.nanoTime() - p.sentAt()[0]));
      }
    } finally {
      res.release();
    }
    pump();
  }

  private void failed(Throwable cause) {
    lastCause = cause;
    fail(new IOException("connection to the tracker failed: " + cause.getMessage(), cause));
  }
}
