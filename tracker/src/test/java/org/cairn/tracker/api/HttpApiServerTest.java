package org.cairn.tracker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cairn.core.config.HostPort;
import org.cairn.tracker.api.call.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request that waits (a commit's synced write on a slow disk) holds up its own connection only: requests on other
 * connections, more of them than the server has handler threads, are answered meanwhile; one connection's pipelined
 * requests are still answered in the order they came.
 */
@Timeout(60)
class HttpApiServerTest {
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch blocking = new CountDownLatch(1);
  private final List<Socket> sockets = new ArrayList<>();
  private HttpApiServer server;

  private Response handle(String method, String path, java.util.Map<String, String> query, byte[] body, String auth) {
    if (path.equals("/block")) {
      blocking.countDown();
      try {
        if (!release.await(30, TimeUnit.SECONDS)) {
          return Response.json(500, "{\"error\":\"never released\"}".getBytes(StandardCharsets.UTF_8));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return Response.json(200, ("{\"path\":\"" + path + "\"}").getBytes(StandardCharsets.UTF_8));
  }

  @AfterEach
  void stop() throws IOException {
    release.countDown();
    for (Socket s : sockets) {
      s.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aWaitingRequestHoldsUpOnlyItsOwnConnection() throws Exception {
    server = new HttpApiServer(HostPort.parse("127.0.0.1:0"), this::handle);
    Socket blocked = connect();
    send(blocked, "/block");
    assertThat(blocking.await(10, TimeUnit.SECONDS)).isTrue();
    // a pinned executor group of n threads gave connection n+1 the blocked connection's thread: it waited with it
    for (int i = 0; i < HttpApiServer.HANDLER_THREADS + 2; i++) {
      Socket s = connect();
      send(s, "/ok" + i);
      assertThat(readBody(s)).isEqualTo("{\"path\":\"/ok" + i + "\"}");
    }
    release.countDown();
    assertThat(readBody(blocked)).isEqualTo("{\"path\":\"/block\"}");
  }

  @Test
  void oneConnectionsPipelinedRequestsAreAnsweredInOrder() throws Exception {
    server = new HttpApiServer(HostPort.parse("127.0.0.1:0"), this::handle);
    Socket s = connect();
    s.getOutputStream().write((request("/block") + request("/after")).getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    assertThat(blocking.await(10, TimeUnit.SECONDS)).isTrue();
    release.countDown();
    assertThat(readBody(s)).isEqualTo("{\"path\":\"/block\"}");
    assertThat(readBody(s)).isEqualTo("{\"path\":\"/after\"}");
  }

  /** This test's handler, with the paths under /inline answered on the network thread; each answer names its thread. */
  private RequestHandler inlining() {
    return new RequestHandler() {
      @Override
      public Response handle(String method, String path, java.util.Map<String, String> query, byte[] body, String auth) {
        if (path.equals("/block")) {
          return HttpApiServerTest.this.handle(method, path, query, body, auth);
        }
        return Response.json(200, (path + " on " + Thread.currentThread().getName()).getBytes(StandardCharsets.UTF_8));
      }

      @Override
      public boolean inline(String method, String path) {
        return path.startsWith("/inline");
      }
    };
  }

  @Test
  void aCallTheApiSaysNeverWaitsIsAnsweredOnTheNetworkThread_othersOnTheHandlerThreads() throws Exception {
    server = new HttpApiServer(HostPort.parse("127.0.0.1:0"), inlining());
    Socket s = connect();
    send(s, "/inline/heartbeat");
    assertThat(readBody(s)).startsWith("/inline/heartbeat on nioEventLoopGroup");
    send(s, "/other");
    assertThat(readBody(s)).startsWith("/other on tracker-api");
    send(s, "/inline/heartbeat");
    assertThat(readBody(s)).startsWith("/inline/heartbeat on nioEventLoopGroup");
  }

  @Test
  void anInlineCallPipelinedAfterAWaitingOneIsAnsweredAfterIt() throws Exception {
    server = new HttpApiServer(HostPort.parse("127.0.0.1:0"), inlining());
    Socket s = connect();
    s.getOutputStream().write((request("/block") + request("/inline/1") + request("/other") + request("/inline/2"))
        .getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    assertThat(blocking.await(10, TimeUnit.SECONDS)).isTrue();
    Socket other = connect();
    send(other, "/inline/meanwhile");
    assertThat(readBody(other)).as("another connection is not held up").startsWith("/inline/meanwhile on nioEventLoopGroup");
    release.countDown();
    assertThat(readBody(s)).isEqualTo("{\"path\":\"/block\"}");
    assertThat(readBody(s)).startsWith("/inline/1 on tracker-api");
    assertThat(readBody(s)).startsWith("/other on tracker-api");
    assertThat(readBody(s)).as("in order, whichever thread answered").startsWith("/inline/2 on ");
    send(s, "/inline/3");
    assertThat(readBody(s)).as("nothing of this connection waits any more").startsWith("/inline/3 on nioEventLoopGroup");
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    sockets.add(s);
    s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
    s.setSoTimeout(10_000); // a read that would wait for the blocked request fails the test instead of hanging it
    return s;
  }

  private static String request(String path) {
    return "GET " + path + " HTTP/1.1\r\nHost: tracker\r\nContent-Length: 0\r\n\r\n";
  }

  private static void send(Socket s, String path) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(request(path).getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** One response's body (its headers read up to the blank line, then Content-Length bytes). */
  private static String readBody(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed in the headers: " + head);
      }
      head.append((char) b);
    }
    int length = -1;
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    assertThat(head.toString()).startsWith("HTTP/1.1 200");
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
