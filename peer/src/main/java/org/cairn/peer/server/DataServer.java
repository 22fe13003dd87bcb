package org.cairn.peer.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.handler.traffic.GlobalTrafficShapingHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
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
 * per connection, on an executor group so fsyncs never stall the event loops.
 */
public final class DataServer implements Closeable {
  private static final FrameEncoder ENCODER = new FrameEncoder();

  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup workers = new NioEventLoopGroup(2);
  /** Store calls block on fsync: they run here, not on the event loops. */
  private final EventExecutorGroup handlers = new DefaultEventExecutorGroup(8);
  private final Channel channel;
  /** Every open connection, so close() can end them before stopping the executors they use. */
  private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

  private final GlobalTrafficShapingHandler shaper;

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
    shaper = bandwidthCap > 0 ? new GlobalTrafficShapingHandler(workers, bandwidthCap, bandwidthCap, 100) : null;
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, workers)
        .channel(NioServerSocketChannel.class)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            connections.add(ch);
            if (tls != null) {
              io.netty.handler.ssl.SslContext context = tls.get();
              if (context == null) {
                ch.close(); // not certified yet: no plaintext on a TLS grid
                return;
              }
              ch.pipeline().addLast(context.newHandler(ch.alloc()));
            }
            if (shaper != null) {
              ch.pipeline().addLast(shaper);
            }
            ch.pipeline()
                .addLast(new ReadTimeoutHandler(120, TimeUnit.SECONDS))
                .addLast(new FrameDecoder())
                .addLast(ENCODER)
                .addLast(handlers, new DataHandler(key, store, admission, gate));
          }
        });
    try {
      channel = b.bind(listen.toSocketAddress()).sync().channel();
    } catch (RuntimeException | InterruptedException e) {
      close(false);
      throw e;
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    close(true);
  }

  /**
   * Stops accepting and closes every connection, then shuts all executor groups down together with a
   * short quiet period: a closing connection's last events hop between its event loop and its handler
   * executor, so neither may terminate while the other still has them queued.
   */
  private void close(boolean bound) {
    if (bound) {
      channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
    connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    if (shaper != null) {
      shaper.release();
    }
    Future<?> h = handlers.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    Future<?> w = workers.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    Future<?> b = boss.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS);
    h.awaitUninterruptibly(5, TimeUnit.SECONDS);
    w.awaitUninterruptibly(5, TimeUnit.SECONDS);
    b.awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
