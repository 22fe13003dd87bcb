package org.cairn.tracker.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.api.ApiError;
import org.cairn.core.api.HeartbeatRequest;
import org.cairn.core.api.HeartbeatResponse;
import org.cairn.core.api.PeerView;
import org.cairn.core.api.RegisterRequest;
import org.cairn.core.availability.Availability;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.core.config.Durations;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementPolicy;
import org.cairn.core.placement.PlacementRequest;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes API requests to the tracker's services; independent of Netty so it can be tested without
 * a network. Every route needs {@code Authorization: Bearer <token>}; errors are {@link ApiError}
 * JSON. The route table is in {@link #route}.
 */
public final class TrackerApi {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerApi.class);
  static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

  private final GridToken token;
  private final Membership membership;
  private final History history;
  private final PlacementService placement;
  private final Metrics metrics;
  private final Clock clock;
  private final Duration heartbeatInterval;
  private final Crls crls;
  private final Catalog catalog;
  private final RepairService repair;
  private final EventLog events;
  private final long startedAt;

  public TrackerApi(GridToken token, Membership membership, History history, PlacementService placement, Metrics metrics,
      Clock clock, Duration heartbeatInterval, Crls crls, Catalog catalog, RepairService repair, EventLog events) {
    this.catalog = catalog;
    this.repair = repair;
    this.events = events;
    this.token = token;
    this.membership = membership;
    this.history = history;
    this.placement = placement;
    this.metrics = metrics;
    this.clock = clock;
    this.heartbeatInterval = heartbeatInterval;
    this.crls = crls;
    this.startedAt = clock.millis();
  }

  /** Handles one request. {@code query} holds decoded query parameters (first value of each). */
  public Response handle(String method, String path, Map<String, String> query, byte[] body, String authorization) {
    long start = System.nanoTime();
    String route = "unmatched";
    Response response;
    try {
      if (method.equals("GET") && (path.equals("/") || path.equals("/index.html") || path.startsWith("/ui/"))) {
        route = "GET /ui";
        response = staticAsset(path);
        metrics.request(route, response.status(), System.nanoTime() - start);
        return response;
      }
      boolean open = statusPagePublic && method.equals("GET") && readOnly(path);
      if (!open && !token.matchesAuthorization(authorization)) {
        route = "auth";
        throw new ApiException(401, "missing or wrong bearer token (send Authorization: Bearer <grid token>)");
      }
      String[] parts = path.split("/");
      route = routeName(method, parts);
      response = route(method, parts, query, body);
    } catch (ApiException e) {
      response = error(e.status(), e.getMessage());
    } catch (JsonProcessingException e) {
      response = error(400, "request body is not valid JSON for this call: " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      response = error(400, e.getMessage());
    } catch (NotEnoughHostsException e) {
      response = error(409, e.getMessage());
    } catch (IOException | RuntimeException e) {
      LOG.error("{} {} failed", method, path, e);
      response = error(500, "internal error: " + e.getMessage());
    }
    metrics.request(route, response.status(), System.nanoTime() - start);
    return response;
  }

  private volatile boolean statusPagePublic;

  /** {@code --status-page public}: the status page's read-only GETs work without the token. */
  public void setStatusPagePublic(boolean open) {
    this.statusPagePublic = open;
  }

  /** What the status page reads; never writes, manifests (holder addresses per chunk) or metrics. */
  private static boolean readOnly(String path) {
    return path.matches("/api/v1/(health|peers|peers/[^/]+|peers/[^/]+/history|durability|apps|versions|events|compute"
        + "|compute/[^/]+/history|availability)");
  }

  private static final java.util.Set<String> ASSETS = java.util.Set.of("index.html", "app.js", "style.css");

  /** The status page, served from the jar (no CDN: grids are often offline). */
  private static Response staticAsset(String path) throws IOException {
    String name = path.equals("/") ? "index.html" : path.substring(path.lastIndexOf('/') + 1);
    if (!ASSETS.contains(name)) {
      return error(404, "no such page: " + path);
    }
    try (java.io.InputStream in = TrackerApi.class.getResourceAsStream("/status/" + name)) {
      if (in == null) {
        return error(500, "status page asset " + name + " is missing from the jar");
      }
      String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8"
          : "text/css; charset=utf-8";
      return new Response(200, type, in.readAllBytes());
    }
  }

  private static String routeName(String method, String[] p) {
    if (p.length >= 2 && p[1].equals("metrics")) {
      return "metrics";
    }
    if (p.length < 4 || !p[1].equals("api") || !p[2].equals("v1")) {
      return "unmatched";
    }
    StringBuilder sb = new StringBuilder(method).append(" /").append(p[3]);
    if (p.length >= 5) {
      sb.append("/{id}");
    }
    for (int i = 5; i < p.length; i++) {
      sb.append('/').append(p[i]);
    }
    return sb.toString();
  }

  private Response route(String method, String[] p, Map<String, String> query, byte[] body)
      throws ApiException, IOException, NotEnoughHostsException {
    // p[0] is "" (path starts with '/')
    if (p.length == 2 && p[1].equals("metrics") && method.equals("GET")) {
      return new Response(200, Response.TEXT, metrics.render().getBytes(StandardCharsets.UTF_8));
    }
    if (p.length < 4 || !p[1].equals("api") || !p[2].equals("v1")) {
      throw new ApiException(404, "no such endpoint; the API is under /api/v1");
    }
    String resource = p[3];
    String id = p.length >= 5 ? p[4] : null;
    String action = p.length >= 6 ? p[5] : null;
    if (p.length > 6) {
      throw new ApiException(404, "no such endpoint");
    }
    switch (resource) {
      case "health":
        requireMethod(method, "GET");
        return json(200, Map.of("status", "ok", "peers", membership.peers().size(), "uptimeMillis", clock.millis() - startedAt));
      case "peers":
        return peers(method, id, action, query, body);
      case "compute":
        return compute(method, id, action, query, body);
      case "availability":
        requireMethod(method, "GET");
        return availability(query);
      case "bandwidth":
        requireMethod(method, "POST");
        return bandwidth(body);
      case "placement":
        requireMethod(method, "POST");
        return placement(body);
      case "chunks":
        if (id == null && method.equals("GET")) {
          return json(200, Map.of("ids", catalog.heldIds(required(query, "app"))));
        }
        if (!"lookup".equals(id)) {
          throw new ApiException(404, "no such endpoint; use GET /api/v1/chunks?app=A or POST /api/v1/chunks/lookup");
        }
        requireMethod(method, "POST");
        return lookup(body);
      case "versions":
        return versions(method, query, body);
      case "stores":
        return stores(method, id, action, body);
      case "manifest":
        requireMethod(method, "GET");
        return manifest(query);
      case "durability":
        requireMethod(method, "GET");
        return json(200, repair.durability());
      case "events": {
        requireMethod(method, "GET");
        long after = query.containsKey("after") ? parseLong(query.get("after"), "after") : 0;
        return json(200, Map.of("events", events.since(after, 500)));
      }
      case "apps":
        requireMethod(method, "GET");
        return json(200, catalog.apps());
      case "policy":
        if (method.equals("GET")) {
          String app = required(query, "app");
          return json(200, Map.of("app", app, "folder", catalog.policy(app)));
        }
        requireMethod(method, "POST");
        {
          JsonNode n = JSON.readTree(body);
          catalog.setPolicy(text(n, "app"), text(n, "folder"));
          return json(200, Map.of("app", text(n, "app"), "folder", catalog.policy(text(n, "app"))));
        }
      default:
        throw new ApiException(404, "no such endpoint: /api/v1/" + resource);
    }
  }

  private Response peers(String method, String id, String action, Map<String, String> query, byte[] body)
      throws ApiException, IOException {
    if (id == null) {
      if (method.equals("GET")) {
        return json(200, membership.peers());
      }
      requireMethod(method, "POST");
      RegisterRequest r = read(body, RegisterRequest.class);
      PeerView v = membership.register(r);
      metrics.heartbeat();
      return json(200, new HeartbeatResponse(v.id(), heartbeatInterval.toMillis(), clock.millis(), repair.queued()));
    }
    if (action == null) {
      requireMethod(method, "GET");
      PeerView v = membership.peer(id);
      if (v == null) {
        throw new ApiException(404, "unknown peer '" + id + "'");
      }
      return json(200, v);
    }
    switch (action) {
      case "heartbeat": {
        requireMethod(method, "POST");
        HeartbeatRequest h = read(body, HeartbeatRequest.class);
        if (!membership.heartbeat(id, h)) {
          throw new ApiException(404, "unknown peer '" + id + "'; register first (POST /api/v1/peers)");
        }
        metrics.heartbeat();
        return json(200, new HeartbeatResponse(id, heartbeatInterval.toMillis(), clock.millis(), repair.queued()));
      }
      case "leave":
        requireMethod(method, "POST");
        if (!membership.leave(id)) {
          throw new ApiException(404, "unknown peer '" + id + "'");
        }
        return json(200, Map.of("id", id, "state", HostState.DOWN.name()));
      case "inventory": {
        // inventory GC: the peer lists what it holds, the tracker answers what is garbage
        requireMethod(method, "POST");
        if (membership.peer(id) == null) {
          throw new ApiException(404, "unknown peer '" + id + "'");
        }
        JsonNode n = JSON.readTree(body);
        List<byte[]> keys = new java.util.ArrayList<>();
        for (JsonNode k : n.path("keys")) {
          keys.add(java.util.HexFormat.of().parseHex(k.asText()));
        }
        if (keys.size() > 100_000) {
          throw new ApiException(400, "send at most 100,000 keys per call, got " + keys.size());
        }
        List<String> garbage = new java.util.ArrayList<>();
        for (byte[] k : catalog.garbage(id, keys)) {
          garbage.add(java.util.HexFormat.of().formatHex(k));
        }
        return json(200, Map.of("garbage", garbage));
      }
      case "repair": {
        // a peer claims repair jobs
        requireMethod(method, "POST");
        requirePeer(id);
        JsonNode n = JSON.readTree(body.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : body);
        int max = Math.max(0, Math.min(64, n.path("max").asInt(4)));
        List<org.cairn.core.api.RepairJob> jobs = repair.claim(id, max);
        return json(200, Map.of("jobs", jobs, "queued", repair.queued()));
      }
      case "repaired": {
        requireMethod(method, "POST");
        requirePeer(id);
        JsonNode n = JSON.readTree(body);
        List<org.cairn.core.api.RepairOutcome> outcomes = new java.util.ArrayList<>();
        for (JsonNode o : n.path("outcomes")) {
          outcomes.add(JSON.treeToValue(o, org.cairn.core.api.RepairOutcome.class));
        }
        repair.report(id, outcomes);
        return json(200, Map.of("accepted", outcomes.size()));
      }
      case "assigned": {
        // the fragments the index says this peer holds, page by page (the peer audits them)
        requireMethod(method, "GET");
        requirePeer(id);
        int limit = (int) Math.max(1, Math.min(100_000, query.containsKey("limit") ? parseLong(query.get("limit"), "limit") : 10_000));
        return json(200, catalog.assigned(id, query.get("after"), limit));
      }
      case "bad": {
        // bad fragments held by this peer, reported by the peer itself (scrub, read) or by a client (fetch)
        requireMethod(method, "POST");
        requirePeer(id);
        JsonNode n = JSON.readTree(body);
        String reporter = n.path("reporter").asText(id);
        Map<byte[], String> fragments = new LinkedHashMap<>();
        for (JsonNode f : n.path("fragments")) {
          String hex = f.path("key").asText("");
          if (hex.length() != 2 * FragmentKey.SIZE || !hex.matches("[0-9a-fA-F]*")) {
            throw new ApiException(400, "fragment key must be " + 2 * FragmentKey.SIZE + " hex digits (chunk id + index + tag), was '" + hex + "'");
          }
          fragments.put(java.util.HexFormat.of().parseHex(hex), f.path("reason").asText("bad"));
        }
        if (fragments.size() > 100_000) {
          throw new ApiException(400, "report at most 100,000 fragments per call, got " + fragments.size());
        }
        return json(200, Map.of("changed", repair.reportBad(id, fragments, reporter)));
      }
      case "history": {
        requireMethod(method, "GET");
        if (membership.peer(id) == null) {
          throw new ApiException(404, "unknown peer '" + id + "'");
        }
        long[] w = window(query, "24h");
        StateSeries s = history.storageSeries(id, w[0], w[1]);
        double[] p = Availability.stateProbabilities(s, w[0], w[1]);
        Map<String, Double> probabilities = new LinkedHashMap<>();
        for (HostState st : HostState.values()) {
          probabilities.put(st.name(), p[st.code()]);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("slotMillis", history.slotMillis());
        out.put("firstSlot", w[0]);
        out.put("states", History.render(s, true));
        out.put("probabilities", probabilities);
        return json(200, out);
      }
      default:
        throw new ApiException(404, "no such peer action '" + action + "'");
    }
  }

  private Response compute(String method, String id, String action, Map<String, String> query, byte[] body)
      throws ApiException, IOException {
    if (id == null) {
      requireMethod(method, "GET");
      return json(200, new TreeMap<>(membership.computeStates()));
    }
    if ("heartbeat".equals(action)) {
      requireMethod(method, "POST");
      JsonNode n = JSON.readTree(body.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : body);
      String state = n.path("state").asText("UP");
      if (!state.equalsIgnoreCase("UP") && !state.equalsIgnoreCase("DOWN")) {
        throw new ApiException(400, "compute state must be UP or DOWN, was '" + state + "'");
      }
      membership.computeHeartbeat(id, state.equalsIgnoreCase("UP"));
      return json(200, Map.of("id", id, "state", state.toUpperCase(java.util.Locale.ROOT)));
    }
    if ("history".equals(action)) {
      requireMethod(method, "GET");
      long[] w = window(query, "14d");
      StateSeries s = history.computeSeries(id, w[0], w[1]);
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("id", id);
      out.put("slotMillis", history.slotMillis());
      out.put("firstSlot", w[0]);
      out.put("states", History.render(s, false));
      out.put("pDown", Availability.computeProbability(s, StateSeries.COMPUTE_DOWN, w[0], w[1]));
      out.put("mttfSeconds", Availability.mttfSlots(s, w[0], w[1]) * history.slotMillis() / 1000.0);
      return json(200, out);
    }
    throw new ApiException(404, "no such compute action '" + action + "'");
  }

  /** CR, LI and CRLS of one storage host against one compute host, and the conditional probabilities. */
  private Response availability(Map<String, String> query) throws ApiException, IOException {
    String storage = query.get("storage");
    String compute = query.get("compute");
    if (storage == null || compute == null) {
      throw new ApiException(400, "give ?storage=PEER_ID&compute=CLIENT_ID (and optionally &window=7d)");
    }
    long[] w = window(query, "7d");
    StateSeries sh = history.storageSeries(storage, w[0], w[1]);
    StateSeries ch = history.computeSeries(compute, w[0], w[1]);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("storage", storage);
    out.put("compute", compute);
    out.put("slots", w[1] - w[0]);
    out.put("pComputeDown", Availability.computeProbability(ch, StateSeries.COMPUTE_DOWN, w[0], w[1]));
    Map<String, Double> givenUp = new LinkedHashMap<>();
    Map<String, Double> givenDown = new LinkedHashMap<>();
    for (HostState s : HostState.values()) {
      givenUp.put(s.name(), nullIfNaN(Availability.conditional(sh, ch, StateSeries.UP, w[0], w[1], s)));
      givenDown.put(s.name(), nullIfNaN(Availability.conditional(sh, ch, StateSeries.COMPUTE_DOWN, w[0], w[1], s)));
    }
    out.put("givenComputeUp", givenUp);
    out.put("givenComputeDown", givenDown);
    out.put("cr", crls.correlatedReliability(sh, ch, w[0], w[1]));
    out.put("li", crls.loadIndicator(sh, ch, w[0], w[1]));
    out.put("crls", crls.score(sh, ch, w[0], w[1]));
    return json(200, out);
  }

  private Response bandwidth(byte[] body) throws IOException, ApiException {
    JsonNode n = JSON.readTree(body);
    String client = text(n, "client");
    String peer = text(n, "peer");
    placement.reportBandwidth(client, peer, n.path("bytesPerSecond").asDouble(0), "probe".equals(n.path("source").asText()));
    return json(200, Map.of("client", client, "peer", peer));
  }

  private Response placement(byte[] body) throws IOException, ApiException, NotEnoughHostsException {
    JsonNode n = JSON.readTree(body);
    String client = text(n, "client");
    long imageBytes = n.path("imageBytes").asLong(-1);
    int m = n.path("m").asInt(3);
    int k = n.path("k").asInt(2);
    PlacementPolicy policy = PlacementPolicy.parse(n.path("policy").asText("falcon"));
    double interval = n.path("intervalSeconds").asDouble(600);
    double useful = n.path("usefulSeconds").asDouble(0);
    double mttf = n.has("mttfSeconds") ? n.get("mttfSeconds").asDouble() : Math.max(interval, placement.mttfSeconds(client));
    PlacementRequest request = new PlacementRequest(imageBytes, m, k, mttf, interval, useful,
        n.path("defaultBytesPerSecond").asDouble(12.5e6), n.path("alternates").asInt(m + k));
    Placement p = placement.place(client, policy, request);
    Map<String, String> addresses = new java.util.HashMap<>();
    Map<String, Double> diskRates = new java.util.HashMap<>();
    for (PeerView v : membership.peers()) {
      addresses.put(v.id(), v.address());
      diskRates.put(v.id(), v.diskWriteBytesPerSecond());
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("policy", policy.name());
    java.util.function.Function<String, Map<String, Object>> host = h -> {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("id", h);
      e.put("address", addresses.get(h));
      double age = placement.bandwidthAgeSeconds(client, h);
      e.put("bytesPerSecond", age < 0 ? null : placement.bandwidth(client, h));
      e.put("bandwidthAgeSeconds", age < 0 ? null : age);
      double disk = diskRates.getOrDefault(h, 0.0);
      e.put("diskBytesPerSecond", disk > 0 ? disk : null);
      return e;
    };
    out.put("hosts", p.hosts().stream().map(host).toList());
    out.put("alternates", p.alternates().stream().map(host).toList());
    out.put("objective", Double.isNaN(p.objective()) ? null : p.objective());
    return json(200, out);
  }

  private Response lookup(byte[] body) throws IOException, ApiException {
    JsonNode n = JSON.readTree(body);
    String app = text(n, "app");
    List<ChunkId> ids = new java.util.ArrayList<>();
    for (JsonNode id : n.path("ids")) {
      ids.add(ChunkId.parse(id.asText()));
    }
    if (ids.size() > 100_000) {
      throw new ApiException(400, "look up at most 100,000 ids per call, got " + ids.size());
    }
    return json(200, Map.of("held", catalog.lookup(app, ids)));
  }

  private Response versions(String method, Map<String, String> query, byte[] body) throws IOException, ApiException {
    switch (method) {
      case "GET": {
        String app = required(query, "app");
        String node = required(query, "node");
        List<Map<String, Object>> vs = catalog.versions(app, node);
        for (Map<String, Object> v : vs) {
          List<ChunkId> chunks = catalog.versionChunks(app, node, (Long) v.get("step"));
          v.put("status", chunks == null ? "deleted" : repair.status(app, chunks));
        }
        return json(200, vs);
      }
      case "POST": {
        JsonNode n = JSON.readTree(body);
        JsonNode manifest = n.get("manifest");
        if (manifest == null || !manifest.isObject()) {
          throw new ApiException(400, "field 'manifest' (an object) is required");
        }
        List<Catalog.NewChunk> chunks = new java.util.ArrayList<>();
        for (JsonNode c : n.path("chunks")) {
          List<String> holders = new java.util.ArrayList<>();
          for (JsonNode h : c.path("holders")) {
            holders.add(h.isNull() ? null : h.asText());
          }
          List<String> tags = null;
          if (c.has("tags")) {
            tags = new java.util.ArrayList<>();
            for (JsonNode t : c.path("tags")) {
              tags.add(t.asText());
            }
          }
          chunks.add(new Catalog.NewChunk(ChunkId.parse(c.path("id").asText()), holders, c.path("storedBytes").asLong(), tags));
        }
        long step = catalog.commit(manifest, chunks, n.hasNonNull("session") ? n.get("session").asText() : null);
        if (n.hasNonNull("session")) {
          catalog.pending().close(n.get("session").asText()); // committed: the index now names its pieces
        }
        return json(200, Map.of("app", manifest.path("app").asText(), "node", manifest.path("node").asText(), "step", step));
      }
      case "DELETE": {
        long step = parseStep(required(query, "step"));
        if (!catalog.delete(required(query, "app"), required(query, "node"), step)) {
          throw new ApiException(404, "no such version");
        }
        return json(200, Map.of("deleted", true));
      }
      default:
        throw new ApiException(405, "use GET, POST or DELETE on /api/v1/versions");
    }
  }

  /**
   * A store in flight names the chunks it sends before sending them, so GC spares their pieces until
   * the commit: {@code POST /api/v1/stores/{session}/pending {"chunks":[hex...]}} (an empty list keeps
   * the session alive), {@code DELETE /api/v1/stores/{session}} when the store gives up.
   */
  private Response stores(String method, String session, String action, byte[] body) throws ApiException, IOException {
    if (session == null) {
      throw new ApiException(404, "no such endpoint; use POST /api/v1/stores/{session}/pending or DELETE /api/v1/stores/{session}");
    }
    if (action == null) {
      requireMethod(method, "DELETE");
      return json(200, Map.of("closed", catalog.pending().close(session)));
    }
    if (!action.equals("pending")) {
      throw new ApiException(404, "no such endpoint; use POST /api/v1/stores/{session}/pending");
    }
    requireMethod(method, "POST");
    JsonNode n = JSON.readTree(body);
    List<ChunkId> ids = new java.util.ArrayList<>();
    for (JsonNode c : n.path("chunks")) {
      ids.add(ChunkId.parse(c.asText()));
    }
    return json(200, Map.of("session", session, "pending", catalog.pending().add(session, ids)));
  }

  /** The manifest plus, per chunk, its holders with their current address, state and the piece's tag. */
  private Response manifest(Map<String, String> query) throws IOException, ApiException {
    String step = query.getOrDefault("step", "latest");
    Map<String, Object> m = catalog.manifest(required(query, "app"), required(query, "node"),
        step.equals("latest") ? 0 : parseStep(step));
    if (m == null) {
      throw new ApiException(404, "no committed version of " + query.get("app") + "." + query.get("node")
          + (step.equals("latest") ? "" : "." + step));
    }
    Map<String, PeerView> peers = new java.util.HashMap<>();
    for (PeerView v : membership.peers()) {
      peers.put(v.id(), v);
    }
    @SuppressWarnings("unchecked")
    Map<String, List<String>> holders = (Map<String, List<String>>) m.get("holders");
    @SuppressWarnings("unchecked")
    Map<String, List<String>> tags = (Map<String, List<String>>) m.get("tags");
    Map<String, Object> located = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : holders.entrySet()) {
      List<Object> list = new java.util.ArrayList<>();
      List<String> t = tags.getOrDefault(e.getKey(), List.of());
      for (int i = 0; i < e.getValue().size(); i++) {
        String h = e.getValue().get(i);
        PeerView v = h == null ? null : peers.get(h);
        list.add(v == null || i >= t.size() ? null : Map.of("id", v.id(), "address", v.address(), "state", v.state(), "tag", t.get(i)));
      }
      located.put(e.getKey(), list);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("manifest", m.get("manifest"));
    out.put("holders", located);
    return json(200, out);
  }

  private void requirePeer(String id) throws ApiException {
    if (membership.peer(id) == null) {
      throw new ApiException(404, "unknown peer '" + id + "'");
    }
  }

  private static long parseLong(String s, String name) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number, was '" + s + "'");
    }
  }

  private static long parseStep(String s) {
    try {
      long v = Long.parseLong(s);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("step must be a positive number or 'latest', was '" + s + "'");
  }

  private static String required(Map<String, String> query, String name) throws ApiException {
    String v = query.get(name);
    if (v == null || v.isBlank()) {
      throw new ApiException(400, "query parameter '" + name + "' is required");
    }
    return v;
  }

  private long[] window(Map<String, String> query, String defaultWindow) {
    Duration d = Durations.parse(query.getOrDefault("window", defaultWindow));
    long to = history.currentSlot() + 1;
    long slots = history.slots(d);
    if (slots > 1_000_000) {
      throw new IllegalArgumentException("window too long: " + slots + " slots (at most 1,000,000)");
    }
    return new long[] {to - slots, to};
  }

  private static String text(JsonNode n, String field) throws ApiException {
    String v = n.path(field).asText(null);
    if (v == null || v.isBlank()) {
      throw new ApiException(400, "field '" + field + "' is required");
    }
    return v;
  }

  private static Double nullIfNaN(double v) {
    return Double.isNaN(v) ? null : v;
  }

  private static <T> T read(byte[] body, Class<T> type) throws IOException, ApiException {
    if (body == null || body.length == 0) {
      throw new ApiException(400, "request body is empty; expected JSON");
    }
    T value = JSON.readValue(body, type);
    if (value == null) {
      throw new ApiException(400, "request body is null; expected a JSON object");
    }
    return value;
  }

  private static void requireMethod(String method, String expected) throws ApiException {
    if (!method.equals(expected)) {
      throw new ApiException(405, "method " + method + " not allowed here; use " + expected);
    }
  }

  static Response json(int status, Object value) {
    try {
      return new Response(status, Response.JSON, JSON.writeValueAsBytes(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("response does not serialise", e);
    }
  }

  static Response error(int status, String message) {
    return json(status, new ApiError(status, message));
  }

  /** Peers by effective state, for metrics. */
  public static Map<String, Long> countByState(List<PeerView> peers) {
    Map<String, Long> out = new TreeMap<>();
    for (HostState s : HostState.values()) {
      out.put(s.name(), 0L);
    }
    for (PeerView p : peers) {
      out.merge(p.state(), 1L, Long::sum);
    }
    return out;
  }
}
