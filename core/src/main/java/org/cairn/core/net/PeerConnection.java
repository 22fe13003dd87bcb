package org.cairn.core.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.config.HostPort;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameDecoder;
import org.cairn.core.protocol.FrameEncoder;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;

/**
 * An authenticated data-plane connection to one peer. Requests are pipelined: each gets a request
 * id and a future completed by the answer with that id (the peer answers in order). The caller owns
 * (and releases) answer frames. If the connection closes, every pending call fails with an
 * {@link IOException} naming the peer. Every frame is written from the channel's event loop queue, in
 * the order the calls were made, whichever thread makes them.
 */
public final class PeerConnection implements Closeable {
  private static final FrameEncoder ENCODER = new FrameEncoder();

  private final String address;
  private final Channel channel;
  private final Map<Integer, CompletableFuture<Frame>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final Duration callTimeout;
  /** The number of the last ticket of its peer's {@link TicketBook} presented here (grants hold until they expire). */
  private long presentedUpTo;
  /** When a request other than a PING was last sent here ({@link System#nanoTime}). */
  private volatile long lastUsedNanos = System.nanoTime();
  /** The peer id the TLS certificate was checked to name; null when none was asked (or no TLS). */
  private final String verifiedPeer;

  PeerConnection(String address, Channel channel, Duration callTimeout) {
    this(address, channel, callTimeout, null);
  }

  PeerConnection(String address, Channel channel, Duration callTimeout, String verifiedPeer) {
    this.address = address;
    this.channel = channel;
    this.callTimeout = callTimeout;
    this.verifiedPeer = verifiedPeer;
  }

  /** Connects and authenticates; the future fails with an IOException saying why. */
  public static CompletableFuture<PeerConnection> connect(EventLoopGroup group, String address, GridToken token,
      Duration timeout) {
    return connect(group, address, token, timeout, null);
  }

  /** As {@link #connect(EventLoopGroup, String, GridToken, Duration)}, over TLS when {@code tls} is not null. */
  public static CompletableFuture<PeerConnection> connect(EventLoopGroup group, String address, GridToken token,
      Duration timeout, io.netty.handler.ssl.SslContext tls) {
    return connect(group, address, token, timeout, tls, null);
  }

  /**
   * As {@link #connect(EventLoopGroup, String, GridToken, Duration, io.netty.handler.ssl.SslContext)},
   * and with TLS and a {@code peerId}, the connection is refused (before this side proves the key)
   * unless the peer's certificate names that id: every donor's certificate is from the same CA, and
   * the host it names only says where the peer was when certified.
   */
  public static CompletableFuture<PeerConnection> connect(EventLoopGroup group, String address, GridToken token,
      Duration timeout, io.netty.handler.ssl.SslContext tls, String peerId) {
    CompletableFuture<PeerConnection> ready = new CompletableFuture<>();
    HostPort hp;
    try {
      hp = HostPort.parse(address);
    } catch (IllegalArgumentException e) {
      ready.completeExceptionally(new IOException("bad peer address '" + address + "': " + e.getMessage()));
      return ready;
    }
    Handler handler = new Handler(address, token, ready, timeout, tls == null ? null : peerId);
    Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            if (tls != null) {
              ch.pipeline().addLast(DataTls.handler(tls, ch.alloc(), hp.host(), hp.port()));
            }
            ch.pipeline().addLast(new FrameDecoder()).addLast(ENCODER).addLast(handler);
          }
        });
    b.connect(hp.host(), hp.port()).addListener(f -> {
      if (!f.isSuccess()) {
        ready.completeExceptionally(new IOException("cannot connect to peer " + address + ": " + f.cause().getMessage(), f.cause()));
      }
    });
    return ready.orTimeout(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
  }

  public String address() {
    return address;
  }

  /** The peer id this connection's TLS certificate was checked to name, or null if none was checked. */
  public String verifiedPeer() {
    return verifiedPeer;
  }

  /** Closes without waiting (a connection dropped from a pool). */
  void closeSoon() {
    channel.close();
  }

  public boolean isActive() {
    return channel.isActive();
  }

  /** Completes when this connection has closed, from either end. */
  public CompletableFuture<Void> closed() {
    CompletableFuture<Void> closed = new CompletableFuture<>();
    channel.closeFuture().addListener(f -> closed.complete(null));
    return closed;
  }

  /** When a request other than a PING was last sent on this connection ({@link System#nanoTime}). */
  public long lastUsedNanos() {
    return lastUsedNanos;
  }

  /**
   * Presents the tickets of {@code book} not yet presented here, ahead of any request sent after this
   * returns (the peer answers in order; a refused ticket closes the connection, failing what follows).
   * Costs nothing when there is nothing new, however many tickets the book holds.
   */
  public synchronized void present(TicketBook book) {
    if (book.lastSeq() <= presentedUpTo) {
      return;
    }
    TicketBook.Page page = book.after(presentedUpTo, System.currentTimeMillis()); // the tickets and their last number, together
    for (org.cairn.core.security.Ticket t : page.tickets()) {
      call(FrameType.TICKET, io.netty.buffer.Unpooled.wrappedBuffer(t.encode())).whenComplete((f, e) -> {
        if (f != null) {
          f.release();
        }
      });
    }
    presentedUpTo = Math.max(presentedUpTo, page.upTo());
  }


  /** Sends a request (the payload's ownership passes to the connection) and returns its answer. */
  public CompletableFuture<Frame> call(FrameType type, ByteBuf payload) {
    if (type != FrameType.PING) {
      lastUsedNanos = System.nanoTime();
    }
    int id = nextId.getAndIncrement();
    CompletableFuture<Frame> answer = new CompletableFuture<>();
    pending.put(id, answer);
    if (!channel.isActive()) {
      pending.remove(id);
      payload.release();
      answer.completeExceptionally(new ConnectionLostException("connection to peer " + address + " is closed"));
      return answer;
    }
    // Always through the event loop's queue, even from the loop itself: a write made on the loop would
    // otherwise go out ahead of the writes other threads queued before it, such as the tickets this
    // request needs (the peer refuses a request without its ticket and closes the connection).
    Frame request = new Frame(type, id, payload);
    try {
      channel.eventLoop().execute(() -> channel.writeAndFlush(request).addListener(f -> {
        if (!f.isSuccess()) {
          failPending(id, new ConnectionLostException("sending to peer " + address + " failed: " + f.cause().getMessage(), f.cause()));
        }
      }));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      payload.release();
      failPending(id, new ConnectionLostException("connection to peer " + address + " is closed (its event loop has stopped)", e));
    }
    return answer.orTimeout(callTimeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((frame, error) -> {
      if (error != null) {
        pending.remove(id);
      }
    });
  }

  private void failPending(int id, IOException e) {
    CompletableFuture<Frame> p = pending.remove(id);
    if (p != null) {
      p.completeExceptionally(e);
    }
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  private static final class Handler extends SimpleChannelInboundHandler<Frame> {
    private final String address;
    private final GridToken token;
    private final CompletableFuture<PeerConnection> ready;
    private final Duration timeout;
    /** The peer id the certificate must name (null: not checked). */
    private final String peerId;
    private PeerConnection connection;

    Handler(String address, GridToken token, CompletableFuture<PeerConnection> ready, Duration timeout, String peerId) {
      super(false); // answer frames are handed to callers, who release them
      this.peerId = peerId;
      this.address = address;
      this.token = token;
      this.ready = ready;
      this.timeout = timeout;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
      if (connection == null) {
        try {
          switch (frame.type()) {
            case CHALLENGE:
              if (!certifiedAsDialled(ctx)) {
                return;
              }
              ctx.writeAndFlush(Frame.of(FrameType.AUTH, 0, token.hmac(ByteBufUtil.getBytes(frame.payload()))));
              return;
            case AUTH_OK:
              connection = new PeerConnection(address, ctx.channel(), timeout.multipliedBy(6), peerId);
              ready.complete(connection);
              return;
            default:
              ready.completeExceptionally(new IOException("peer " + address + " refused the connection: "
                  + frame.payload().toString(StandardCharsets.UTF_8)));
              ctx.close();
              return;
          }
        } finally {
          frame.release();
        }
      }
      CompletableFuture<Frame> p = connection.pending.remove(frame.requestId());
      if (p == null || !p.complete(frame)) {
        frame.release(); // nobody waits for it any more (timed out)
      }
    }

    /**
     * With a peer id to check: whether the TLS session's certificate names it (the handshake is done
     * when the first frame arrives); if not, the connection fails and is closed, the key unproved.
     */
    private boolean certifiedAsDialled(ChannelHandlerContext ctx) {
      if (peerId == null) {
        return true;
      }
      try {
        io.netty.handler.ssl.SslHandler ssl = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
        if (ssl == null) {
          throw new java.security.cert.CertificateException("no TLS session");
        }
        java.security.cert.Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
        if (chain.length == 0 || !(chain[0] instanceof java.security.cert.X509Certificate)) {
          throw new java.security.cert.CertificateException("the peer presented no X.509 certificate");
        }
        org.cairn.core.security.PinnedTrust.requirePeer((java.security.cert.X509Certificate) chain[0], peerId);
        return true;
      } catch (java.security.cert.CertificateException | javax.net.ssl.SSLPeerUnverifiedException e) {
        ready.completeExceptionally(new IOException("peer " + address + " is not peer " + peerId + ": " + e.getMessage(), e));
        ctx.close();
        return false;
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      ready.completeExceptionally(new IOException("connection to peer " + address + " closed"));
      ConnectionLostException closed = new ConnectionLostException("connection to peer " + address + " closed");
      if (connection != null) {
        for (Integer id : connection.pending.keySet()) {
          CompletableFuture<Frame> p = connection.pending.remove(id);
          if (p != null) {
            p.completeExceptionally(closed);
          }
        }
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ready.completeExceptionally(new IOException("peer " + address + ": " + cause.getMessage(), cause));
      ctx.close();
    }
  }
}
