package org.cairn.tracker.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpsContextTest {
  @TempDir
  Path data;

  private EmbeddedChannel channel() throws Exception {
    SslContext tls = HttpsContext.of(TrackerCa.open(data, "127.0.0.1"), data);
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.pipeline().addLast(tls.newHandler(ch.alloc()));
    return ch;
  }

  private static String written(EmbeddedChannel ch) {
    StringBuilder s = new StringBuilder();
    for (ByteBuf b = ch.readOutbound(); b != null; b = ch.readOutbound()) {
      s.append(b.toString(StandardCharsets.UTF_8));
      b.release();
    }
    return s.toString();
  }

  @Test
  void aPlainHttpRequestOnTheTlsPortIsAnswered400WithWhatToChangeAndClosed() throws Exception {
    EmbeddedChannel ch = channel();
    ch.writeInbound(Unpooled.copiedBuffer("GET /api/v1/health HTTP/1.1\r\nHost: t\r\n\r\n", StandardCharsets.US_ASCII));
    String answer = written(ch);
    assertThat(answer).startsWith("HTTP/1.1 400 Bad Request\r\n").contains("Connection: close");
    assertThat(answer.substring(answer.indexOf("\r\n\r\n") + 4))
        .startsWith("{\"status\":400,\"error\":\"this tracker serves HTTPS only")
        .contains("https://").contains("#sha256:").contains(data.resolve("ca.sha256").toString()).contains("--insecure-plain-http")
        .doesNotContain("\n");
    assertThat(ch.isOpen()).isFalse();
    assertThat((Object) ch.readInbound()).as("nothing of the plain request reaches the API").isNull();
  }

  @Test
  void fewerBytesThanARecordHeaderAreHeldUntilMoreCome() throws Exception {
    EmbeddedChannel ch = channel();
    ch.writeInbound(Unpooled.copiedBuffer("GET", StandardCharsets.US_ASCII));
    assertThat(written(ch)).isEmpty();
    assertThat(ch.isOpen()).isTrue();
    ch.writeInbound(Unpooled.copiedBuffer(" / HTTP/1.1\r\n\r\n", StandardCharsets.US_ASCII));
    assertThat(written(ch)).startsWith("HTTP/1.1 400");
    assertThat(ch.isOpen()).isFalse();
  }

  @Test
  void aTlsClientHelloGoesOnToTheHandshake() throws Exception {
    EmbeddedChannel ch = channel();
    SSLEngine client = SSLContext.getDefault().createSSLEngine("127.0.0.1", 443);
    client.setUseClientMode(true);
    ByteBuffer hello = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
    client.beginHandshake();
    client.wrap(ByteBuffer.allocate(0), hello);
    hello.flip();
    ch.writeInbound(Unpooled.wrappedBuffer(hello));
    String answer = written(ch);
    assertThat(answer).doesNotContain("HTTP/1.1 400");
    assertThat(answer).as("the server's handshake answer").isNotEmpty();
    assertThat(ch.isOpen()).isTrue();
    assertThat(ch.pipeline().get(HttpsContext.PlainGuard.class)).as("the guard left the pipeline").isNull();
    assertThat(ch.pipeline().get(SslHandler.class)).isNotNull();
    ch.finishAndReleaseAll();
  }
}
