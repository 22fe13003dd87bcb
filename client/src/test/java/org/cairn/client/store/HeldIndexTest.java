package org.cairn.client.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.Test;

/** The dedup index asked for on its own thread: its answer, and its failure thrown as the call would have thrown it. */
class HeldIndexTest {
  @Test
  void theAnswerIsTheTrackersHeldChunks_andTheStoreMayAddToIt() throws Exception {
    ChunkId a = ChunkId.of(new byte[] {1});
    ChunkId b = ChunkId.of(new byte[] {2});
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/api/v1/chunks", ex -> {
      byte[] body = ("{\"ids\":[\"" + a.hex() + "\",\"" + b.hex() + "\"]}").getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(ex.getRequestURI().getQuery().contains("app=heat") ? 200 : 400, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    try {
      TrackerClient tracker = new TrackerClient(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
          GridToken.of(GridToken.generate()), Duration.ofSeconds(5));
      Set<ChunkId> held = HeldIndex.await(HeldIndex.ask(tracker, "heat", "code:4+2"));
      assertThat(held).containsExactlyInAnyOrder(a, b);
      held.add(ChunkId.of(new byte[] {3}));
      assertThat(held).hasSize(3);
      assertThatThrownBy(() -> HeldIndex.await(HeldIndex.ask(tracker, "other", null))).isInstanceOf(TrackerHttp.TrackerException.class);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void anUnreachableTrackerFailsAsTheCallWould() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    TrackerClient gone = new TrackerClient(URI.create("http://127.0.0.1:" + port), GridToken.of(GridToken.generate()), Duration.ofSeconds(2));
    assertThatThrownBy(() -> HeldIndex.await(HeldIndex.ask(gone, "heat", null))).isInstanceOf(TrackerHttp.UnreachableException.class);
  }
}
