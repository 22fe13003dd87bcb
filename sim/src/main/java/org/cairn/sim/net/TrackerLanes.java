package org.cairn.sim.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AttributeKey;
import java.io.Closeable;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * Many simulated donors' calls to one tracker over a few kept-alive connections ("lanes") on a few event-loop
 * threads: donor {@code i} uses lane {@code i % lanes}, and every call carries the donor's own bearer credential, so
 * the tracker authenticates and authorizes each donor as it would a real one. Ten thousand donors are ten thousand
 * scheduled beats, not ten thousand threads or sockets.
 */
public final class TrackerLanes implements Closeable {
  /** The tracker's TLS, when its URL is https: the context pinned to its CA, and the name and port it is reached at. */
  record Tls(SslContext context, String host, int port) {}

  static final AttributeKey<Tls> TLS = AttributeKey.valueOf("cairn.sim.tls");

  private final URI base;
  private final EventLoopGroup group;
  private final Lane[] lanes;

  /**
   * @param base the tracker's URL (http or https)
   * @param tls the JDK context that trusts the tracker (its CA pinned); null for http
   * @param connections how many connections the donors share
   * @param threads event-loop threads
   */
  public TrackerLanes(URI base, SSLContext tls, int connections, int threads) {
    if (connections < 1 || threads < 1) {
      throw new IllegalArgumentException("connections and threads must be at least 1");
    }
    this.base = base;
    this.group = new NioEventLoopGroup(threads);
    int port = base.getPort() > 0 ? base.getPort() : "https".equalsIgnoreCase(base.getScheme()) ? 443 : 80;
    Bootstrap b = new Bootstrap().channel(NioSocketChannel.class).remoteAddress(base.getHost(), port)
        .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000);
    if ("https".equalsIgnoreCase(base.getScheme())) {
      SslContext ctx = new JdkSslContext(tls, true, ClientAuth.NONE);
      b.attr(TLS, new Tls(ctx, base.getHost(), port));
    }
    lanes = new Lane[connections];
    for (int i = 0; i < connections; i++) {
      lanes[i] = new Lane(group.next(), b, base.getHost() + ":" + port);
    }
  }

  public URI base() {
    return base;
  }

  /** POSTs {@code json} to {@code path} as the holder of {@code bearer}, on donor {@code donor}'s lane. */
  public CompletableFuture<Answer> post(int donor, String path, String bearer, byte[] json) {
    return call(donor, HttpMethod.POST, path, bearer, json);
  }

  /** GETs {@code path} as the holder of {@code bearer}. */
  public CompletableFuture<Answer> get(int donor, String path, String bearer) {
    return call(donor, HttpMethod.GET, path, bearer, null);
  }

  private CompletableFuture<Answer> call(int donor, HttpMethod method, String path, String bearer, byte[] json) {
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    lanes[Math.floorMod(donor, lanes.length)].submit(new Lane.Pending(method, path, bearer, json, answer, new long[1]));
    return answer;
  }

  @Override
  public void close() {
    for (Lane l : lanes) {
      l.close();
    }
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
