package org.cairn.core.api;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.api.catalog.PendingRequest;
import org.cairn.core.security.GridToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tracker's answers as a real HTTP server gives them: read into records in one pass, errors as their messages. */
class TrackerHttpTest {
  private HttpServer server;
  /** path -> status and body the server answers. */
  private final Map<String, Object[]> answers = new ConcurrentHashMap<>();
  private final Map<String, String> seenBodies = new ConcurrentHashMap<>();
  private final java.util.Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
  private TrackerHttp http;

  @BeforeEach
  void start() throws IOException {
    serve(0);
    http = new TrackerHttp(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), GridToken.of(GridToken.generate()),
        Duration.ofSeconds(5));
  }

  private void serve(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.createContext("/", ex -> {
      clientPorts.add(ex.getRemoteAddress().getPort());
      seenBodies.put(ex.getRequestURI().getPath(), new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      Object[] a = answers.getOrDefault(ex.getRequestURI().getPath(), new Object[] {404, "{\"error\":\"no such route\"}"});
      byte[] body = ((String) a[1]).getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders((Integer) a[0], body.length == 0 ? -1 : body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void answersAreReadIntoTheirRecords() throws IOException {
    answers.put("/a", new Object[] {200, "{\"session\":\"s1\",\"pending\":3,\"tickets\":[],\"later\":\"ignored\"}"});
    PendingRequest.Answer a = http.post("/a", new PendingRequest("heat", List.of("ab"), List.of("p1")), PendingRequest.Answer.class);
    assertThat(a).isEqualTo(new PendingRequest.Answer("s1", 3, List.of()));
    assertThat(seenBodies.get("/a")).contains("\"chunks\":[\"ab\"]").contains("\"hosts\":[\"p1\"]");

    answers.put("/l", new Object[] {200, "[{\"status\":503,\"error\":\"e\",\"leader\":\"x\"},{\"status\":200,\"error\":null,\"leader\":null}]"});
    List<NotLeaderError> list = http.get("/l", Map.of("q", "a b"),
        TrackerHttp.JSON.getTypeFactory().constructCollectionType(List.class, NotLeaderError.class));
    assertThat(list).containsExactly(new NotLeaderError(503, "e", "x"), new NotLeaderError(200, null, null));
  }

  @Test
  void aTextAnswer_isReadAsText_andAJsonAnswerThatIsNotJson_isAClearError() throws IOException {
    answers.put("/metrics", new Object[] {200, "# TYPE cairn_repair_queue gauge\ncairn_repair_queue 7\n"});
    assertThat(http.get("/metrics", Map.of(), String.class)).contains("cairn_repair_queue 7");
    answers.put("/n", new Object[] {200, "cairn_repair_queue 7"});
    assertThatThrownBy(() -> http.get("/n", Map.of(), NotLeaderError.class)).hasMessageContaining("not JSON");
  }

  @Test
  void callsOneAfterAnotherShareOneConnection() throws IOException {
    answers.put("/k", new Object[] {200, "{\"status\":1,\"error\":\"e\",\"leader\":\"l\"}"});
    answers.put("/bad", new Object[] {409, "{\"error\":\"conflict\"}"});
    for (int i = 0; i < 6; i++) {
      assertThat(http.post("/k", Map.of("i", i), NotLeaderError.class).status()).isEqualTo(1);
      assertThatThrownBy(() -> http.get("/bad", Map.of(), NotLeaderError.class)).hasMessage("conflict"); // error bodies are read too
    }
    assertThat(seenBodies.get("/k")).isEqualTo("{\"i\":5}");
    assertThat(clientPorts).as("the connection is kept alive between calls").hasSize(1);
  }

  @Test
  void aTrackerRestartedBetweenCallsIsCalledOnANewConnection() throws IOException {
    answers.put("/k", new Object[] {200, "{\"status\":7,\"error\":null,\"leader\":null}"});
    assertThat(http.post("/k", Map.of(), NotLeaderError.class).status()).isEqualTo(7);
    int port = server.getAddress().getPort();
    server.stop(0); // closes the kept-alive connection from its side, as a restarted tracker has
    serve(port);
    assertThat(http.post("/k", Map.of("again", true), NotLeaderError.class).status()).isEqualTo(7);
    assertThat(http.get("/k", Map.of(), NotLeaderError.class).status()).isEqualTo(7);
    assertThat(clientPorts).hasSize(2);
  }

  @Test
  void aTrackerThatIsGoneIsUnreachable() throws IOException {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    TrackerHttp gone = new TrackerHttp(URI.create("http://127.0.0.1:" + port), GridToken.of(GridToken.generate()), Duration.ofSeconds(2));
    assertThatThrownBy(() -> gone.get("/x", Map.of(), NotLeaderError.class)).isInstanceOf(TrackerHttp.UnreachableException.class)
        .hasMessageContaining("unreachable");
  }

  @Test
  void aBodyThatIsNotJsonOrOfAnotherShapeIsAClearError() {
    answers.put("/html", new Object[] {200, "<html>proxy</html>"});
    assertThatThrownBy(() -> http.get("/html", Map.of(), NotLeaderError.class)).isInstanceOf(IOException.class)
        .hasMessageContaining("/html answered 200 with a body that is not JSON");
    answers.put("/shape", new Object[] {200, "{\"status\":\"many\"}"});
    assertThatThrownBy(() -> http.get("/shape", Map.of(), NotLeaderError.class)).isInstanceOf(IOException.class)
        .hasMessageContaining("/shape answered JSON of an unexpected shape");
    answers.put("/empty", new Object[] {200, ""});
    assertThatThrownBy(() -> http.get("/empty", Map.of(), NotLeaderError.class)).isInstanceOf(IOException.class)
        .hasMessageContaining("/empty answered");
  }

  @Test
  void errorStatusesCarryTheTrackersMessage() {
    answers.put("/bad", new Object[] {400, "{\"error\":\"app is required\"}"});
    assertThatThrownBy(() -> http.get("/bad", Map.of(), NotLeaderError.class)).isInstanceOfSatisfying(TrackerHttp.TrackerException.class,
        e -> {
          assertThat(e.status()).isEqualTo(400);
          assertThat(e).hasMessage("app is required");
        });
    answers.put("/token", new Object[] {401, "{\"error\":\"unknown token\"}"});
    assertThatThrownBy(() -> http.get("/token", Map.of(), NotLeaderError.class)).isInstanceOf(IOException.class)
        .hasMessageContaining("refused the token (401): unknown token");
    answers.put("/follower", new Object[] {503, "{\"status\":503,\"error\":\"a follower\",\"leader\":\"t2\"}"});
    assertThatThrownBy(() -> http.get("/follower", Map.of(), NotLeaderError.class)).isInstanceOf(TrackerHttp.UnreachableException.class)
        .hasMessageContaining("does not lead its group: a follower");
    answers.put("/oops", new Object[] {500, "Internal Server Error"});
    assertThatThrownBy(() -> http.get("/oops", Map.of(), NotLeaderError.class)).isInstanceOf(IOException.class)
        .hasMessageContaining("/oops answered 500 with a body that is not JSON");
  }
}
