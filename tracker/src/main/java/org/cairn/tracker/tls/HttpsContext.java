package org.cairn.tracker.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.ApplicationProtocolNegotiator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSessionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS context of a tracker's HTTPS API and status page. Its handlers answer a client that speaks
 * plain HTTP to the TLS port with a plain {@code HTTP/1.1 400} whose error is {@link #plainHttpAnswer}
 * and close: a peer or client still configured for a plain grid is told what to change instead of
 * seeing a reset. Nothing it sent is read as a request.
 */
public final class HttpsContext {
  private static final Logger LOG = LoggerFactory.getLogger(HttpsContext.class);
  /** Bytes a TLS record header takes, and so what {@link SslHandler#isEncrypted(ByteBuf)} needs to decide. */
  private static final int RECORD_HEADER = 5;

  private HttpsContext() {
  }

  /**
   * The tracker's CA and its fresh server certificate; through OpenSSL (BoringSSL, netty-tcnative)
   * where the platform has it, else the JDK.
   */
  public static SslContext of(TrackerCa ca, Path data) throws IOException {
    SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    LOG.info("TLS through {}; CA pin sha256:{} (in {}; token create appends it to tokens)",
        provider == SslProvider.OPENSSL ? "OpenSSL (" + OpenSsl.versionString() + ")" : "the JDK", ca.pin(), data.resolve("ca.sha256"));
    SslContext tls = SslContextBuilder.forServer(ca.serverKey(), ca.chain()).sslProvider(provider).protocols("TLSv1.3", "TLSv1.2").build();
    return new PlainAnswering(tls, plainHttpAnswer(data));
  }

  /** The one line a plain-HTTP client of a TLS tracker gets: what its operator must change. */
  public static String plainHttpAnswer(Path data) {
    return "this tracker serves HTTPS only (TLS is the default): use https://HOST:PORT and a token carrying the tracker's CA pin, "
        + "TOKEN#sha256:PIN (PIN is in " + data.resolve("ca.sha256") + " on the tracker's host; 'cairn-tracker token create' prints "
        + "tokens with it), or restart the tracker with --insecure-plain-http to stay plain";
  }

  /** The full plain HTTP answer: a 400 whose JSON error (as the API's errors are) is {@code message}; the connection then closes. */
  static byte[] plainHttp400(String message) {
    String json = "{\"status\":400,\"error\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: " + body.length
        + "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    byte[] all = new byte[h.length + body.length];
    System.arraycopy(h, 0, all, 0, h.length);
    System.arraycopy(body, 0, all, h.length, body.length);
    return all;
  }

  /** A server context whose handlers put a {@link PlainGuard} in front of themselves; everything else is the delegate's. */
  static final class PlainAnswering extends SslContext {
    private final SslContext tls;
    private final byte[] answer;

    PlainAnswering(SslContext tls, String message) {
      this.tls = tls;
      this.answer = plainHttp400(message);
    }

    @Override
    public boolean isClient() {
      return tls.isClient();
    }

    @Override
    public List<String> cipherSuites() {
      return tls.cipherSuites();
    }

    @Override
    @SuppressWarnings("deprecation")
    public ApplicationProtocolNegotiator applicationProtocolNegotiator() {
      return tls.applicationProtocolNegotiator();
    }

    @Override
    public SSLEngine newEngine(ByteBufAllocator alloc) {
      return tls.newEngine(alloc);
    }

    @Override
    public SSLEngine newEngine(ByteBufAllocator alloc, String peerHost, int peerPort) {
      return tls.newEngine(alloc, peerHost, peerPort);
    }

    @Override
    public SSLSessionContext sessionContext() {
      return tls.sessionContext();
    }

    @Override
    protected SslHandler newHandler(ByteBufAllocator alloc, boolean startTls) {
      return new Guarded(newEngine(alloc), startTls, answer);
    }

    @Override
    protected SslHandler newHandler(ByteBufAllocator alloc, boolean startTls, Executor executor) {
      return new Guarded(newEngine(alloc), startTls, executor, answer);
    }

    @Override
    protected SslHandler newHandler(ByteBufAllocator alloc, String peerHost, int peerPort, boolean startTls) {
      return new Guarded(newEngine(alloc, peerHost, peerPort), startTls, answer);
    }

    @Override
    protected SslHandler newHandler(ByteBufAllocator alloc, String peerHost, int peerPort, boolean startTls, Executor executor) {
      return new Guarded(newEngine(alloc, peerHost, peerPort), startTls, executor, answer);
    }
  }

  /** An SslHandler that, once in a pipeline, puts a {@link PlainGuard} just before itself. */
  static final class Guarded extends SslHandler {
    private final byte[] answer;

    Guarded(SSLEngine engine, boolean startTls, byte[] answer) {
      super(engine, startTls);
      this.answer = answer;
    }

    Guarded(SSLEngine engine, boolean startTls, Executor executor, byte[] answer) {
      super(engine, startTls, executor);
      this.answer = answer;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
      ctx.pipeline().addBefore(ctx.name(), null, new PlainGuard(answer));
      super.handlerAdded(ctx);
    }
  }

  /**
   * Looks at a connection's first bytes: a TLS record goes on to the SslHandler (and the guard leaves
   * the pipeline); anything else is answered with the plain 400 and the connection closed, its bytes
   * dropped unread.
   */
  static final class PlainGuard extends ByteToMessageDecoder {
    private final byte[] answer;
    private boolean answered;

    PlainGuard(byte[] answer) {
      this.answer = answer;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      if (answered) {
        in.skipBytes(in.readableBytes());
        return;
      }
      if (in.readableBytes() < RECORD_HEADER) {
        return;
      }
      if (SslHandler.isEncrypted(in)) {
        ctx.pipeline().remove(this); // the bytes held go on to the SslHandler
        return;
      }
      answered = true;
      in.skipBytes(in.readableBytes());
      LOG.debug("answered plain HTTP from {} on the HTTPS port with 400 (it must use https:// and a pinned token)",
          ctx.channel().remoteAddress());
      ctx.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(ChannelFutureListener.CLOSE);
    }
  }
}
