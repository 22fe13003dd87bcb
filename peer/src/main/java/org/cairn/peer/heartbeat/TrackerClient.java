package org.cairn.peer.heartbeat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.HeartbeatRequest;
import org.cairn.core.api.HeartbeatResponse;
import org.cairn.core.api.RegisterRequest;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.security.GridToken;

/** The peer's calls to the tracker: registration, heartbeats, leaving, and inventory GC. */
public final class TrackerClient {
  private final TrackerHttp http;

  public TrackerClient(URI base, GridToken token, Duration timeout) {
    this.http = new TrackerHttp(base, token, timeout);
  }

  public URI base() {
    return http.base();
  }

  public HeartbeatResponse register(RegisterRequest r) throws IOException {
    return TrackerHttp.JSON.treeToValue(http.post("/api/v1/peers", r), HeartbeatResponse.class);
  }

  /** @return null if the tracker does not know this peer (it should register again) */
  public HeartbeatResponse heartbeat(String id, HeartbeatRequest h) throws IOException {
    try {
      return TrackerHttp.JSON.treeToValue(http.post("/api/v1/peers/" + id + "/heartbeat", h), HeartbeatResponse.class);
    } catch (TrackerHttp.TrackerException e) {
      if (e.status() == 404) {
        return null;
      }
      throw e;
    }
  }

  public void leave(String id) throws IOException {
    try {
      http.post("/api/v1/peers/" + id + "/leave", Map.of());
    } catch (TrackerHttp.TrackerException e) {
      if (e.status() != 404) { // already unknown: nothing to leave
        throw e;
      }
    }
  }

  /** Inventory GC: sends held keys (hex), returns those the tracker says are garbage. */
  public List<String> garbage(String id, List<String> keys) throws IOException {
    List<String> out = new ArrayList<>();
    for (JsonNode g : http.post("/api/v1/peers/" + id + "/inventory", Map.of("keys", keys)).path("garbage")) {
      out.add(g.asText());
    }
    return out;
  }
}
