package org.cairn.peer.heartbeat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.cairn.core.api.HeartbeatRequest;
import org.cairn.core.api.HeartbeatResponse;
import org.cairn.core.api.RegisterRequest;
import org.cairn.core.security.GridToken;

/** The peer's calls to the tracker's API, with the bearer token and a per-request timeout. */
public final class TrackerClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;
  private final GridToken token;
  private final HttpClient http;
  private final Duration timeout;

  public TrackerClient(URI base, GridToken token, Duration timeout) {
    String s = base.toString();
    this.base = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    this.token = token;
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
  }

  public URI base() {
    return base;
  }

  public HeartbeatResponse register(RegisterRequest r) throws IOException, InterruptedException {
    return post("/api/v1/peers", r);
  }

  /** @return null if the tracker does not know this peer (it should register again) */
  public HeartbeatResponse heartbeat(String id, HeartbeatRequest h) throws IOException, InterruptedException {
    try {
      return post("/api/v1/peers/" + id + "/heartbeat", h);
    } catch (UnknownPeerException e) {
      return null;
    }
  }

  public void leave(String id) throws IOException, InterruptedException {
    try {
      post("/api/v1/peers/" + id + "/leave", java.util.Map.of());
    } catch (UnknownPeerException e) {
      // already unknown: nothing to leave
    }
  }

  /** Inventory GC: sends held keys (hex), returns those the tracker says are garbage. */
  public java.util.List<String> garbage(String id, java.util.List<String> keys) throws IOException, InterruptedException {
    HttpRequest req = HttpRequest.newBuilder(base.resolve("/api/v1/peers/" + id + "/inventory"))
        .timeout(timeout.multipliedBy(6))
        .header("Authorization", "Bearer " + token.bearerValue())
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(java.util.Map.of("keys", keys))))
        .build();
    HttpResponse<byte[]> res = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
    if (res.statusCode() != 200) {
      throw new IOException("tracker inventory check answered " + res.statusCode());
    }
    java.util.List<String> out = new java.util.ArrayList<>();
    for (com.fasterxml.jackson.databind.JsonNode g : JSON.readTree(res.body()).path("garbage")) {
      out.add(g.asText());
    }
    return out;
  }

  private HeartbeatResponse post(String path, Object body) throws IOException, InterruptedException {
    HttpRequest req = HttpRequest.newBuilder(base.resolve(path))
        .timeout(timeout)
        .header("Authorization", "Bearer " + token.bearerValue())
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
        .build();
    HttpResponse<byte[]> res = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
    if (res.statusCode() == 404 && path.contains("/peers/")) {
      throw new UnknownPeerException();
    }
    if (res.statusCode() == 401) {
      throw new IOException("tracker " + base + " refused the grid token (401); check --token-file");
    }
    if (res.statusCode() != 200) {
      String msg;
      try {
        msg = JSON.readTree(res.body()).path("error").asText(new String(res.body(), java.nio.charset.StandardCharsets.UTF_8));
      } catch (IOException e) {
        msg = new String(res.body(), java.nio.charset.StandardCharsets.UTF_8);
      }
      throw new IOException("tracker " + base + path + " answered " + res.statusCode() + ": " + msg);
    }
    return JSON.readValue(res.body(), HeartbeatResponse.class);
  }

  private static final class UnknownPeerException extends IOException {
    private static final long serialVersionUID = 1L;
  }
}
