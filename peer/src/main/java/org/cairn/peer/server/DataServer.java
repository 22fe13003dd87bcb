package org.cairn.peer.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.handler.traffic.GlobalTrafficShapingHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.cairn.core.config.HostPort;
import org.cairn.core.protocol.FrameDecoder;
import org.cairn.core.protocol.FrameEncoder;
import org.cairn.core.security.GridToken;
import org.cairn.peer.store.FragmentStore;

/**
 * The peer's TCP data server: frame decoder (hard size limit) -> encoder -> {@link DataHandler}, one
 * per connection, on the connection's event loop.
 *
 * <p>A connection is served one request at a time (its reading pauses while one is handled), so a
 * handler that blocks on a PUT's fsync holds up only the connections that share its loop, as
 * connections sharing a handler executor waited for each other before. What handing each request to
 * an executor and its answer back cost (two thread wake-ups per request, each a context switch on a
 * small host) it no longer costs: #19 measured the peers' CPU per GB ingested about 10 % lower with
 * the handlers on the loops and larger reads (docs/benchmarks/journal.md, "Peers: requests served where they
 * are read"). There are as many loops as there were executors, so as many connections are served at
 * once.
 */
public final class DataServer implements Closeable {
  private static final FrameEncoder ENCODER = new FrameEncoder();
  /**
   * Reads of up to 1 MiB (Netty's default stops at 64 KiB): a PUT batch of up to 4 MiB arrives in
   * a few reads instead of dozens, each a system call.
   */
  private static final int MAX_READ = 1 << 20;

  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  /** Store calls block on fsync, on the loop that read the request: a loop per connection, up to eight. */
  private final EventLoopGroup workers = new NioEventLoopGroup(8);
  private final Channel channel;
  /** Every open connection, so close() can end them before stopping the event loops they use. */
  private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

  private final GlobalTrafficShapingHandler shaper;
  private final ConnectionCounter counter;

  /**
   * @param bandwidthCap bytes per second in each direction for all data connections together
   *     (donor policy); 0 for no cap
   */
  public DataServer(HostPort listen, GridToken token, FragmentStore store, Admission admission, long bandwidthCap)
      throws InterruptedException {
    this(listen, () -> token, null, store, admission, bandwidthCap, TicketGate.notRequired());
  }

  /**
   * @param key the data-plane key connections must prove (the tracker gives it at registration;
   *     null until then, and connections are refused)
   */

  /**
   * @param tls null for a plain data plane; otherwise every connection is TLS with the context it
   *     supplies, and refused while it supplies none (a peer not yet certified by its tracker)
   * @param gate which requests need tickets (a peer daemon: GET, HAS and PUT)
   */
  public DataServer(HostPort listen, java.util.function.Supplier<GridToken> key,
      java.util.function.Supplier<io.netty.handler.ssl.SslContext> tls, FragmentStore store, Admission admission,
      long bandwidthCap, TicketGate gate) throws InterruptedException {
    this(listen, key, tls, store, admission, bandwidthCap, gate, ConnectionLimits.DEFAULT);
  }

  /** With TLS records wrapped {@link org.cairn.core.net.DataTls#wrapBytes()} at a time (the process's setting). */
  public DataServer(HostPort listen, java.util.function.Supplier<GridToken> key,
      java.util.function.Supplier<io.netty.handler.ssl.SslContext> tls, FragmentStore store, Admission admission,
      long bandwidthCap, TicketGate gate, ConnectionLimits limits) throws InterruptedException {
    this(listen, key, tls, store, admission, bandwidthCap, gate, limits, org.cairn.core.net.DataTls.wrapBytes());
  }

  /**
   * @param limits connection caps, the authentication deadline and the frame limit before it; a
   *     connection over a cap is closed as it is accepted, before TLS or anything else is set up
   * @param tlsWrapBytes plaintext bytes a TLS connection wraps in one pass
   */
  public DataServer(HostPort listen, java.util.function.Supplier<GridToken> key,
      java.util.function.Supplier<io.netty.handler.ssl.SslContext> tls, FragmentStore store, Admission admission,
      long bandwidthCap, TicketGate gate, ConnectionLimits limits, int tlsWrapBytes) throws InterruptedException {
    this(listen, key, tls, store, admission, bandwidthCap, bandwidthCap, gate, limits, tlsWrapBytes);
  }

  /**
   * @param uploadCap bytes per second sent, all data connections together; 0 for no cap
   * @param downloadCap bytes per second received, all data connections together; 0 for no cap
   */
  public DataServer(HostPort listen, java.util.function.Supplier<GridToken> key,
      java.util.function.Supplier<io.netty.handler.ssl.SslContext> tls, FragmentStore store, Admission admission,
      long uploadCap, long downloadCap, TicketGate gate, ConnectionLimits limits, int tlsWrapBytes) throws InterruptedException {
    counter = new ConnectionCounter(limits);
    shaper = uploadCap > 0 || downloadCap > 0 ? new GlobalTrafficShapingHandler(workers, uploadCap, downloadCap, 100) : null;
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, workers)
        .channel(NioServerSocketChannel.class)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(64, 2048, MAX_READ))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            if (!counter.admit(ch)) {
              ch.close(); // over a cap: refused before any work is spent on it
              return;
            }
            connections.add(ch);
            if (tls != null) {
              io.netty.handler.ssl.SslContext context = tls.get();
              if (context == null) {
                ch.close(); // not certified yet: no plaintext on a TLS grid
                return;
              }
              ch.pipeline().addLast(org.cairn.core.net.DataTls.handler(context, ch.alloc(), null, 0, tlsWrapBytes));
            }
            if (shaper != null) {
              ch.pipeline().addLast(shaper);
            }
            ch.pipeline()
                .addLast(new ReadTimeoutHandler(120, TimeUnit.SECONDS))
                .addLast(FrameDecoder.limitedTo(limits.preAuthPayload())) // lifted by the handler at AUTH
                .addLast(ENCODER)
                .addLast(new DataHandler(key, store, admission, gate, limits.authDeadline()));
          }
        });
    try {
      channel = b.bind(listen.toSocketAddress()).sync().channel();
    } catch (RuntimeException | InterruptedException e) {
      close(false);
      throw e;
    }
  }

  /** Connections open now (tests). */
  int openConnections() {
    return counter.open();
  }

  /**
   * Caps what the server sends and receives from now on, bytes per second, all connections together (0: none); a no-op
   * for a server started without caps. The peer lowers them by repair's share while its repairs run, so the donor's
   * traffic, served and repaired, stays within its caps.
   */
  public void limit(long upload, long download) {
    if (shaper != null) {
      shaper.configure(upload, download);
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    close(true);
  }

  /** Stops accepting and closes every connection, then shuts the event loops down with a short quiet period. */
  private void close(boolean bound) {
    if (bound) {
      channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
    connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    if (shaper != null) {
      shaper.release();
    }
    Future<?> w = workers.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    Future<?> b = boss.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    w.awaitUninterruptibly(5, TimeUnit.SECONDS);
    b.awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
