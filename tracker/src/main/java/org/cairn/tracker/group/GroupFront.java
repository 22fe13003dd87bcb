package org.cairn.tracker.group;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.function.Supplier;
import org.cairn.core.api.status.ClusterView;
import org.cairn.tracker.api.RequestHandler;
import org.cairn.tracker.api.TrackerApi;
import org.cairn.tracker.api.call.Response;

/**
 * What a group member's HTTP port serves: {@code GET /api/v1/cluster} on every member (no token: ids,
 * addresses and roles only), the tracker's API while this member leads, and otherwise a 503 naming
 * the leader, so clients and peers given several trackers go on to the next.
 */
final class GroupFront implements RequestHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Supplier<ClusterView> view;
  private volatile TrackerApi api;

  GroupFront(Supplier<ClusterView> view) {
    this.view = view;
  }

  /** Serve {@code api} (this member leads), or nothing but the cluster view (null). */
  void serve(TrackerApi api) {
    this.api = api;
  }

  /** The leader's API judges its requests' bodies; a follower answers every call but the cluster view with a 503. */
  @Override
  public Limit limit(String method, String path, String authorization) {
    TrackerApi current = api;
    return current != null ? current.limit(method, path, authorization) : RequestHandler.super.limit(method, path, authorization);
  }

  /** The leader's inline calls (heartbeats); a follower's answers go to the handler threads as they did. */
  @Override
  public boolean inline(String method, String path) {
    TrackerApi current = api;
    return current != null && current.inline(method, path);
  }

  @Override
  public Response handle(String method, String path, Map<String, String> query, byte[] body, String authorization) {
    if (path.equals("/api/v1/cluster") && method.equals("GET")) {
      try {
        return Response.json(200, JSON.writeValueAsBytes(view.get()));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a cluster view does not serialise", e);
      }
    }
    TrackerApi current = api;
    if (current != null) {
      return current.handle(method, path, query, body, authorization);
    }
    ClusterView v = view.get();
    String leaderUrl = v.members().stream().filter(m -> m.id().equals(v.leader()) && m.url() != null).map(ClusterView.Member::url)
        .findFirst().orElse(null);
    if (method.equals("GET") && (path.equals("/") || path.equals("/index.html"))) {
      // a browser at a follower: say where the status page is
      String to = leaderUrl == null ? "" : " The status page is at <a href=\"" + leaderUrl + "/\">" + leaderUrl + "/</a>.";
      return new Response(503, "text/html; charset=utf-8", ("<!doctype html><title>Cairn tracker</title><p>This tracker follows "
          + (v.leader().isEmpty() ? "no leader yet (an election is running)" : v.leader()) + "." + to + "</p>")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return TrackerApi.notLeader(v.leader().isEmpty() ? "this tracker's group is electing a leader; try again in a few seconds"
        : "this tracker follows " + v.leader() + (leaderUrl == null ? "" : " (" + leaderUrl + ")") + "; ask the leader", v.leader());
  }
}
