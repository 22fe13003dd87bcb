package org.cairn.core.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NoTlsTest {
  @Test
  void aClientWithIt_speaksPlainHttp_andRefusesHttps() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      byte[] body = "plain".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      HttpClient client = HttpClient.newBuilder().sslContext(NoTls.context()).build();
      URI plain = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/x");
      HttpResponse<String> answer = client.send(HttpRequest.newBuilder(plain).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("plain");
      // the same server's port asked over https: refused before any handshake, with the reason
      URI tls = URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/x");
      assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(tls).build(), HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(IOException.class).hasMessageContaining("plain http only");
    } finally {
      server.stop(0);
    }
  }
}
