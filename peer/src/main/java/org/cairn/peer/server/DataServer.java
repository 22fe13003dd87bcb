package org.cairn.peer.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
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

  public DataServer(HostPort listen, GridToken token, FragmentStore store, Admission admission) throws InterruptedException {
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, workers)
        .channel(NioServerSocketChannel.class)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline()
                .addLast(new ReadTimeoutHandler(120, TimeUnit.SECONDS))
                .addLast(new FrameDecoder())
                .addLast(ENCODER)
                .addLast(handlers, new DataHandler(token, store, admission));
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

  private void close(boolean bound) {
    if (bound) {
      channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    handlers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
