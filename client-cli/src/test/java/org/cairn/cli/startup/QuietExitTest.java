package org.cairn.cli.startup;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a one-command process does before it exits: the HttpClient's selector thread, which would hold the exit, ends on an interrupt. */
class QuietExitTest {
  @Test
  void anHttpClientsSelectorThread_isFound_andEndsWhenReleased() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, 2);
      exchange.getResponseBody().write("ok".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      exchange.close();
    });
    server.start();
    try {
      List<Thread> before = QuietExit.selectors();
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.body()).isEqualTo("ok");
      List<Thread> mine = new ArrayList<>(QuietExit.selectors());
      mine.removeAll(before); // only this test's client: others in this JVM keep theirs
      assertThat(mine).as("the client's selector thread, waiting in epoll_wait").hasSize(1);
      assertThat(mine.get(0).isAlive()).isTrue();
      QuietExit.release(mine);
      assertThat(mine.get(0).isAlive()).as("gone: nothing left in native code to hold the exit").isFalse();
    } finally {
      server.stop(0);
    }
  }

  @Test
  void onlyTheJdksSelectorThreadsAreTaken() {
    assertThat(QuietExit.isHttpSelector("HttpClient-7-SelectorManager")).isTrue();
    assertThat(QuietExit.isHttpSelector("HttpClient-7-Worker-0")).isFalse();
    assertThat(QuietExit.isHttpSelector("cairn-io")).isFalse();
  }
}
