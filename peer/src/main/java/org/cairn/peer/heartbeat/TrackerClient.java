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
import org.cairn.core.api.RepairJob;
import org.cairn.core.api.RepairOutcome;
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

  /** Claims up to {@code max} repair jobs; empty when none is waiting or this peer may not run them now. */
  public List<RepairJob> claimRepairs(String id, int max) throws IOException {
    List<RepairJob> out = new ArrayList<>();
    for (JsonNode j : http.post("/api/v1/peers/" + id + "/repair", Map.of("max", max)).path("jobs")) {
      out.add(TrackerHttp.JSON.treeToValue(j, RepairJob.class));
    }
    return out;
  }

  public void reportRepairs(String id, List<RepairOutcome> outcomes) throws IOException {
    http.post("/api/v1/peers/" + id + "/repaired", Map.of("outcomes", outcomes));
  }

  /** Reports fragments held by {@code holder} as bad: hex fragment key -> reason. */
  public void reportBad(String holder, Map<String, String> keys, String reporter) throws IOException {
    List<Map<String, String>> fragments = new ArrayList<>();
    keys.forEach((k, reason) -> fragments.add(Map.of("key", k, "reason", reason)));
    http.post("/api/v1/peers/" + holder + "/bad", Map.of("fragments", fragments, "reporter", reporter));
  }

  /** One page of the fragment keys (hex) the tracker's index assigns to this peer; next is null at the end. */
  public record Assigned(List<String> keys, String next) {}

  public Assigned assigned(String id, String after) throws IOException {
    Map<String, String> q = after == null ? Map.of("limit", "10000") : Map.of("limit", "10000", "after", after);
    JsonNode n = http.get("/api/v1/peers/" + id + "/assigned", q);
    List<String> keys = new ArrayList<>();
    n.path("keys").forEach(k -> keys.add(k.asText()));
    return new Assigned(keys, n.path("next").isNull() || n.path("next").isMissingNode() ? null : n.path("next").asText());
  }
}
