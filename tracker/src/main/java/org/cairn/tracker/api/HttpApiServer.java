package org.cairn.tracker.api;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.cairn.core.config.HostPort;
import org.cairn.tracker.api.call.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP/1.1 on Netty: codec -> body limit (each endpoint's, judged from the request's head before its
 * body is read: {@link BodyLimit}) -> aggregator -> one handler that hands requests to
 * {@link TrackerApi} on a small worker group (RocksDB calls stay off the event loop), except the requests the API says
 * never wait ({@link RequestHandler#inline}: heartbeats), which are answered on the event loop that read them: handing
 * a request to another thread and its answer back cost more than the heartbeat itself (docs/simulation.md
 * "Heartbeats"). Malformed or oversized requests get a JSON error and the connection is closed; nothing a client sends
 * can crash the tracker.
 */
public final class HttpApiServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
  /**
   * Largest request body of any endpoint (a commit's; the others take less, {@link BodyLimit}). A commit carries the manifest and the new chunks' holders, about 250 bytes
   * per chunk: 64 MiB covers images of about 250,000 chunks (250 GiB at 1 MiB chunks). Larger images
   * need commits in parts (not built yet).
   */
  static final int MAX_BODY = 64 << 20;

  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup workers = new NioEventLoopGroup(2);
  /** How late the workers take what they read (heartbeats are answered on them): failure detection allows for it. */
  private final LoopLag lag = new LoopLag(workers, LAG_WINDOW_MILLIS, System::nanoTime);
  static final long LAG_WINDOW_MILLIS = 10_000;
  /**
   * Threads that run requests (RocksDB calls, a commit's synced write): any connection's next request takes any free one.
   * Most of a busy tracker's requests wait rather than compute: in a tracker group a registration waits for three log
   * round trips (its token's use, its record, its credential; ~100 ms each on a loaded 2-core machine), so the threads
   * bound how many registrations are in flight (16 held a group of three to ~20 a second, docs/simulation.md).
   */
  static final int HANDLER_THREADS = 64;
  /**
   * Each connection's requests run in order, one at a time, on whichever handler thread is free: a request that waits
   * (a commit's synced write while the disk is slow) holds up its own connection only. A DefaultEventExecutorGroup pins
   * each connection to one of its threads, so the peers' heartbeats pinned behind a waiting commit waited with it, and
   * the tracker marked live peers DOWN.
   */
  private final io.netty.util.concurrent.EventExecutorGroup handlers = new io.netty.util.concurrent.NonStickyEventExecutorGroup(
      new io.netty.util.concurrent.UnorderedThreadPoolEventExecutor(HANDLER_THREADS, new io.netty.util.concurrent.DefaultThreadFactory("tracker-api")));
  private final Channel channel;
  /** Every open connection, so close() can end them before stopping the executors they use. */
  private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

  public HttpApiServer(HostPort listen, RequestHandler api) throws InterruptedException {
    this(listen, api, null);
  }

  /** With {@code tls} non-null the API is served over HTTPS only: a plain connection is closed at its first bytes. */
  public HttpApiServer(HostPort listen, RequestHandler api, io.netty.handler.ssl.SslContext tls) throws InterruptedException {
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, workers)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            connections.add(ch);
            if (tls != null) {
              ch.pipeline().addLast(tls.newHandler(ch.alloc()));
            }
            ch.pipeline()
                .addLast(new ReadTimeoutHandler(60, TimeUnit.SECONDS))
                .addLast(new HttpServerCodec(4096, 16 * 1024, 64 * 1024))
                .addLast(new HttpServerKeepAliveHandler())
                .addLast(new BodyLimit(api))
                .addLast(new HttpObjectAggregator(MAX_BODY))
                .addLast(new ApiHandler(api, handlers.next()));
          }
        });
    try {
      channel = b.bind(listen.toSocketAddress()).sync().channel();
    } catch (RuntimeException | InterruptedException e) {
      shutdownGroups();
      throw e;
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /**
   * How far behind the event loops are, in milliseconds: the most a probe on them ran late in the last 10 s, or is
   * overdue now ({@link LoopLag}).
   */
  public long lagMillis() {
    return lag.millis();
  }

  /** Stops accepting, closes every connection, then shuts the executor groups down together (see DataServer). */
  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    shutdownGroups();
  }

  private void shutdownGroups() {
    io.netty.util.concurrent.Future<?> h = handlers.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    io.netty.util.concurrent.Future<?> w = workers.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    io.netty.util.concurrent.Future<?> b = boss.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    h.awaitUninterruptibly(5, TimeUnit.SECONDS);
    w.awaitUninterruptibly(5, TimeUnit.SECONDS);
    b.awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  /**
   * One connection's requests: an inline one is answered here on the event loop, any other on {@code pool} (this
   * connection's ordered executor on the handler threads). A request is answered inline only while none of the
   * connection's is on the pool, so a client that pipelines gets its answers in order.
   */
  static final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final RequestHandler api;
    private final io.netty.util.concurrent.EventExecutor pool;
    /** This connection's requests handed to the pool and not answered yet (read and written on the event loop only). */
    private int onPool;

    ApiHandler(RequestHandler api, io.netty.util.concurrent.EventExecutor pool) {
      this.api = api;
      this.pool = pool;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      if (!req.decoderResult().isSuccess()) {
        LOG.warn("closing {}: malformed HTTP request: {}", ctx.channel().remoteAddress(), req.decoderResult().cause().toString());
        send(ctx, Response.error(400, "malformed HTTP request"), false);
        return;
      }
      QueryStringDecoder qs = new QueryStringDecoder(req.uri());
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      if (onPool == 0 && api.inline(req.method().name(), qs.path())) {
        send(ctx, handle(req, qs), keepAlive);
        return;
      }
      onPool++;
      req.retain();
      try {
        onPool(ctx, req, qs, keepAlive);
      } catch (java.util.concurrent.RejectedExecutionException e) { // the server is closing
        onPool--;
        req.release();
        throw e;
      }
    }

    /** Hands {@code req} to this connection's executor on the handler threads; its answer is written on the event loop. */
    private void onPool(ChannelHandlerContext ctx, FullHttpRequest req, QueryStringDecoder qs, boolean keepAlive) {
      pool.execute(() -> {
        Response r;
        try {
          r = handle(req, qs);
        } catch (RuntimeException e) {
          LOG.error("{} {} failed", req.method(), qs.path(), e);
          r = Response.error(500, "internal error: " + e);
        } finally {
          req.release();
        }
        Response answer = r;
        ctx.channel().eventLoop().execute(() -> {
          onPool--;
          send(ctx, answer, keepAlive);
        });
      });
    }

    private Response handle(FullHttpRequest req, QueryStringDecoder qs) {
      Map<String, String> query = new HashMap<>();
      for (Map.Entry<String, List<String>> e : qs.parameters().entrySet()) {
        query.put(e.getKey(), e.getValue().get(0));
      }
      ByteBuf content = req.content();
      byte[] body = ByteBufUtil.getBytes(content);
      return api.handle(req.method().name(), qs.path(), query, body, req.headers().get(HttpHeaderNames.AUTHORIZATION));
    }

    private static void send(ChannelHandlerContext ctx, Response r, boolean keepAlive) {
      FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
          Unpooled.wrappedBuffer(r.body()));
      res.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
      res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length);
      res.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
      if (r.status() == 401) {
        res.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"cairn\"");
      }
      if (keepAlive) {
        HttpUtil.setKeepAlive(res, true);
        ctx.writeAndFlush(res);
      } else {
        res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // Oversized bodies are answered 413 by the aggregator; anything else closes the connection.
      LOG.warn("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
      byte[] body = ("{\"status\":400,\"error\":\"" + cause.getClass().getSimpleName() + "\"}").getBytes(StandardCharsets.UTF_8);
      if (ctx.channel().isActive()) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST,
            Unpooled.wrappedBuffer(body));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, Response.JSON);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
      }
    }
  }
}
