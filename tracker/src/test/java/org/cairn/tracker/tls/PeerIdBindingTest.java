package org.cairn.tracker.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.DataTls;
import org.cairn.core.net.PeerClient;
import org.cairn.core.net.PeerConnection;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameDecoder;
import org.cairn.core.protocol.FrameEncoder;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.security.GridToken;
import org.cairn.core.security.PinnedTrust;
import org.cairn.core.security.Ticket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A donor's data-plane certificate names its peer id, and a client dialling a peer refuses a
 * certificate for another: over real TLS, a server holding peer X's certificate (for the right host)
 * is refused when the client dials peer Y there, and accepted when it dials X.
 */
class PeerIdBindingTest {
  @TempDir
  Path dir;

  private final NioEventLoopGroup group = new NioEventLoopGroup(2);
  private final GridToken token = GridToken.of(GridToken.generate());
  /** AUTHs the fake peer answered: none must reach it when the certificate is refused. */
  private final AtomicInteger auths = new AtomicInteger();

  @AfterEach
  void stop() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
  }

  @Test
  void theCertificateNamesThePeerIdInItsSubjectAndAsAUri() throws Exception {
    TrackerCa ca = TrackerCa.open(dir.resolve("ca"), "127.0.0.1");
    X509Certificate cert = certify(ca, "peer-x", generate()).chain[0];
    assertThat(PinnedTrust.peerId(cert)).isEqualTo("peer-x");
    assertThat(cert.getSubjectAlternativeNames()).anySatisfy(n -> assertThat(n.get(1)).isEqualTo("cairn-peer:peer-x"));
    PinnedTrust.requirePeer(cert, "peer-x");
    assertThatThrownBy(() -> PinnedTrust.requirePeer(cert, "peer-y")).isInstanceOf(CertificateException.class)
        .hasMessageContaining("not for peer peer-y");
    assertThatThrownBy(() -> ca.certify("x,CN=Cairn tracker", "127.0.0.1",
        Base64.getEncoder().encodeToString(generate().getPublic().getEncoded())))
        .isInstanceOf(java.io.IOException.class).hasMessageContaining("a peer id is");
  }

  @Test
  void dialingPeerYAtAnAddressServedWithPeerXsCertificateIsRefusedBeforeTheKeyIsProved() throws Exception {
    TrackerCa ca = TrackerCa.open(dir.resolve("ca"), "127.0.0.1");
    Issued x = certify(ca, "peer-x", generate());
    String address = serve(x);
    var tls = DataTls.client(ca.pin());

    ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
        () -> PeerConnection.connect(group, address, token, Duration.ofSeconds(5), tls, "peer-y").get(10, TimeUnit.SECONDS));
    assertThat(refused.getCause()).hasMessageContaining("is not peer peer-y");
    assertThat(auths.get()).as("no AUTH was sent to the impostor").isZero();

    PeerConnection right = PeerConnection.connect(group, address, token, Duration.ofSeconds(5), tls, "peer-x")
        .get(10, TimeUnit.SECONDS);
    assertThat(right.verifiedPeer()).isEqualTo("peer-x");
    right.call(FrameType.PING, io.netty.buffer.Unpooled.EMPTY_BUFFER).get(10, TimeUnit.SECONDS).release();
    right.close();
  }

  @Test
  void aPeerClientChecksThePeerItsTicketsNameAndReplacesAConnectionCheckedForNone() throws Exception {
    TrackerCa ca = TrackerCa.open(dir.resolve("ca"), "127.0.0.1");
    String address = serve(certify(ca, "peer-x", generate()));
    try (PeerClient client = new PeerClient(group, token, Duration.ofSeconds(5))) {
      client.useTls(ca.pin());
      client.ping(address).get(10, TimeUnit.SECONDS); // no peer known at the address yet: the host is checked
      Ticket forY = new Ticket(Ticket.Op.READ, System.currentTimeMillis() + 60_000, "peer-y", "c1",
          List.of(ChunkId.of(new byte[] {1})), new byte[] {1});
      client.addTickets(address, List.of(forY)); // the tracker says peer-y is there
      assertThatThrownBy(() -> client.ping(address).get(10, TimeUnit.SECONDS)).hasMessageContaining("is not peer peer-y");
      client.expect(address, "peer-x");
      client.ping(address).get(10, TimeUnit.SECONDS);
      assertThat(client.connection(address).get(10, TimeUnit.SECONDS).verifiedPeer()).isEqualTo("peer-x");
    }
  }

  private record Issued(java.security.PrivateKey key, X509Certificate[] chain) {}

  private static KeyPair generate() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  private static Issued certify(TrackerCa ca, String id, KeyPair pair) throws Exception {
    var issued = ca.certify(id, "127.0.0.1", Base64.getEncoder().encodeToString(pair.getPublic().getEncoded()));
    CertificateFactory x509 = CertificateFactory.getInstance("X.509");
    return new Issued(pair.getPrivate(), new X509Certificate[] {
        (X509Certificate) x509.generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(issued.certificate()))),
        (X509Certificate) x509.generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(issued.caCertificate())))});
  }

  /** A TLS server that answers as a peer does (CHALLENGE, AUTH_OK, PONG); returns its address. */
  private String serve(Issued identity) throws Exception {
    var context = DataTls.server(identity.key(), identity.chain());
    Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(context.newHandler(ch.alloc())).addLast(new FrameDecoder()).addLast(new FrameEncoder())
                .addLast(new SimpleChannelInboundHandler<Frame>() {
                  @Override
                  public void channelActive(ChannelHandlerContext ctx) {
                    ctx.writeAndFlush(Frame.of(FrameType.CHALLENGE, 0, new byte[32]));
                  }

                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, Frame f) {
                    if (f.type() == FrameType.AUTH) {
                      auths.incrementAndGet();
                      ctx.writeAndFlush(Frame.of(FrameType.AUTH_OK, f.requestId(), new byte[0]));
                    } else if (f.type() == FrameType.PING) {
                      ctx.writeAndFlush(Frame.of(FrameType.PONG, f.requestId(), new byte[0]));
                    } else {
                      ctx.writeAndFlush(Frame.of(FrameType.ERROR, f.requestId(), new byte[0]));
                    }
                  }
                });
          }
        }).bind("127.0.0.1", 0).sync().channel();
    return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
  }
}
