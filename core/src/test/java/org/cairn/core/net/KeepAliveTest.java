package org.cairn.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameDecoder;
import org.cairn.core.protocol.FrameEncoder;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A peer closes a connection that reads nothing for a while (its read timeout); {@link PeerClient#keepAlive} pings the
 * connections used within its window, so they stay open, and leaves the others to close. The server here answers as a
 * peer does (challenge, AUTH_OK, IDENTITY, PONG) with a one-second read timeout.
 */
class KeepAliveTest {
  private static final long READ_TIMEOUT_MS = 1000;
  private final NioEventLoopGroup group = new NioEventLoopGroup(2);
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger pings = new AtomicInteger();
  /** A permit per PING the server read. */
  private final Semaphore pinged = new Semaphore(0);
  private Channel server;
  private PeerClient client;
  private String address;

  @BeforeEach
  void start() throws InterruptedException {
    server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            accepted.incrementAndGet();
            ch.pipeline().addLast(new ReadTimeoutHandler(READ_TIMEOUT_MS, TimeUnit.MILLISECONDS)).addLast(new FrameDecoder())
                .addLast(new FrameEncoder()).addLast(new SimpleChannelInboundHandler<Frame>() {
                  @Override
                  public void channelActive(ChannelHandlerContext ctx) {
                    ctx.writeAndFlush(Frame.of(FrameType.CHALLENGE, 0, new byte[32]));
                  }

                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, Frame f) {
                    switch (f.type()) {
                      case AUTH -> ctx.writeAndFlush(Frame.of(FrameType.AUTH_OK, 0, new byte[0]));
                      case IDENTIFY -> ctx.writeAndFlush(Frame.of(FrameType.IDENTITY, f.requestId(),
                          "peer-1".getBytes(StandardCharsets.UTF_8)));
                      case PING -> {
                        pings.incrementAndGet();
                        pinged.release();
                        ctx.writeAndFlush(new Frame(FrameType.PONG, f.requestId(), Unpooled.EMPTY_BUFFER));
                      }
                      default -> ctx.close();
                    }
                  }
                });
          }
        }).bind("127.0.0.1", 0).sync().channel();
    address = "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
    client = new PeerClient(group, GridToken.of(GridToken.generate()), Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.close().sync();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
  }

  @Test
  void aConnectionUsedWithinTheWindowOutlivesThePeersReadTimeout() throws Exception {
    assertThat(client.identify(address).get(5, TimeUnit.SECONDS)).isEqualTo("peer-1");
    PeerConnection used = client.connection(address).get(5, TimeUnit.SECONDS);
    CompletableFuture<Void> closed = used.closed();
    AtomicInteger notPinged = new AtomicInteger();
    ScheduledExecutorService pinger = Executors.newSingleThreadScheduledExecutor();
    try {
      pinger.scheduleAtFixedRate(() -> {
        if (client.keepAlive(Duration.ofMinutes(1)) != 1) {
          notPinged.incrementAndGet();
        }
      }, 0, READ_TIMEOUT_MS / 3, TimeUnit.MILLISECONDS);
      // nine pings at a third of the read timeout apart: the connection has lived through about three timeouts
      assertThat(pinged.tryAcquire(9, 10, TimeUnit.SECONDS)).as("nine pings read").isTrue();
      assertThat(closed).as("kept open by the pings").isNotDone();
    } finally {
      pinger.shutdownNow();
      assertThat(pinger.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(notPinged.get()).as("pinged on every call within the window").isZero();
    assertThat(client.identify(address).get(5, TimeUnit.SECONDS)).isEqualTo("peer-1");
    assertThat(client.connection(address).get(5, TimeUnit.SECONDS)).as("the same connection").isSameAs(used);
    assertThat(accepted.get()).isEqualTo(1);
  }

  @Test
  void aConnectionIdleLongerThanTheWindowIsNotPingedAndCloses() throws Exception {
    assertThat(client.identify(address).get(5, TimeUnit.SECONDS)).isEqualTo("peer-1");
    PeerConnection used = client.connection(address).get(5, TimeUnit.SECONDS);
    long window = TimeUnit.MILLISECONDS.toNanos(200);
    AtomicInteger pingedOutside = new AtomicInteger();
    ScheduledExecutorService pinger = Executors.newSingleThreadScheduledExecutor();
    try {
      pinger.scheduleAtFixedRate(() -> {
        long idleBefore = System.nanoTime() - used.lastUsedNanos(); // idle time only grows: PINGs do not count as use
        int pinged = client.keepAlive(Duration.ofNanos(window));
        if (idleBefore > window && pinged > 0) {
          pingedOutside.incrementAndGet();
        }
      }, 0, 50, TimeUnit.MILLISECONDS);
      used.closed().get(10, TimeUnit.SECONDS); // a ping after the window would keep it open past this
    } finally {
      pinger.shutdownNow();
      assertThat(pinger.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(pingedOutside.get()).as("pinged only within the window").isZero();
    assertThat(pings.get()).as("pinged while within the window").isPositive();
    assertThat(used.isActive()).as("closed by the peer's read timeout").isFalse();
    assertThat(client.keepAlive(Duration.ofHours(1))).as("a closed connection is not pinged, nor opened again").isZero();
    assertThat(accepted.get()).isEqualTo(1);
    // the next request opens a new one
    assertThat(client.identify(address).get(5, TimeUnit.SECONDS)).isEqualTo("peer-1");
    assertThat(accepted.get()).isEqualTo(2);
  }
}
