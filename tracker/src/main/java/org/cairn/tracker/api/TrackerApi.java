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
import org.cairn.core.api.AssignedPage;
import org.cairn.core.api.BadPieces;
import org.cairn.core.api.BandwidthReport;
import org.cairn.core.api.CommitRequest;
import org.cairn.core.api.ComputeState;
import org.cairn.core.api.FolderPolicy;
import org.cairn.core.api.HeldChunks;
import org.cairn.core.api.Inventory;
import org.cairn.core.api.LocatedChunk;
import org.cairn.core.api.LocatedVersion;
import org.cairn.core.api.PendingRequest;
import org.cairn.core.api.PlacementAnswer;
import org.cairn.core.api.PlacementQuery;
import org.cairn.core.api.RepairClaim;
import org.cairn.core.api.VersionRow;
import org.cairn.core.erasure.Redundancy;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.core.api.HeartbeatRequest;
import org.cairn.core.api.HeartbeatResponse;
import org.cairn.core.config.HostPort;
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
import org.cairn.tracker.auth.Access;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.auth.TicketIssuer;
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
public final class TrackerApi implements RequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerApi.class);
  static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

  private final Credentials credentials;
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

  public TrackerApi(Credentials credentials, Membership membership, History history, PlacementService placement, Metrics metrics,
      Clock clock, Duration heartbeatInterval, Crls crls, Catalog catalog, RepairService repair, EventLog events) {
    this.catalog = catalog;
    this.repair = repair;
    this.events = events;
    this.credentials = credentials;
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
      Principal who = credentials.authenticate(authorization).orElse(null);
      if (who == null && !open) {
        route = "auth";
        throw new ApiException(401, credentials.refusal(authorization));
      }
      String[] parts = path.split("/");
      route = routeName(method, parts);
      if (who == null) {
        who = publicPage;
      } else {
        String refused = Access.refusal(who, route, parts.length >= 5 ? parts[4] : null);
        if (refused != null) {
          throw new ApiException(403, refused);
        }
      }
      response = route(method, parts, query, body, who);
    } catch (ApiException e) {
      response = error(e.status(), e.getMessage());
    } catch (JsonProcessingException e) {
      response = error(400, "request body is not valid JSON for this call: " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      response = error(400, e.getMessage());
    } catch (NotEnoughHostsException e) {
      response = error(409, e.getMessage());
    } catch (org.cairn.tracker.store.NotCommittedException e) {
      response = notLeader(e.getMessage(), e.leader());
    } catch (IOException | RuntimeException e) {
      LOG.error("{} {} failed", method, path, e);
      response = error(500, "internal error: " + e.getMessage());
    }
    metrics.request(route, response.status(), System.nanoTime() - start);
    return response;
  }

  private volatile boolean statusPagePublic;
  private volatile PeerCertifier certifier;

  /** A tracker with TLS: peers' data-plane keys are certified at registration. */
  public void setPeerCertifier(PeerCertifier certifier) {
    this.certifier = certifier;
  }

  /** What {@code POST /api/v1/backup} runs: a backup of the tracker's data directory to a new directory. */
  public interface Backup {
    org.cairn.core.api.BackupRequest.Answer to(java.nio.file.Path target) throws IOException;
  }

  private volatile Backup backup;
  private volatile java.util.function.Supplier<org.cairn.core.api.ClusterView> cluster =
      () -> new org.cairn.core.api.ClusterView("tracker", List.of());

  /** This tracker as a group of one: its id and the address it serves on. */
  public void setSelf(String id, String address) {
    org.cairn.core.api.ClusterView self = new org.cairn.core.api.ClusterView(id,
        List.of(new org.cairn.core.api.ClusterView.Member(id, address, "leader")));
    cluster = () -> self;
  }

  /** A member of a replicated group: {@code GET /api/v1/cluster} answers what the group says now. */
  public void setCluster(java.util.function.Supplier<org.cairn.core.api.ClusterView> view) {
    cluster = view;
  }

  private volatile org.cairn.tracker.history.CapacityHistory capacity;
  private volatile org.cairn.tracker.catalog.CatalogRecords records;

  /** Where {@code GET /api/v1/records} seals versions' catalog records. */
  public void setRecords(org.cairn.tracker.catalog.CatalogRecords records) {
    this.records = records;
  }

  /**
   * A store puts its version's catalog record on the grid: {@code GET /api/v1/records?app&node&step}
   * seals it, {@code POST /api/v1/records} ({@link org.cairn.core.api.RecordAttach}) names its pieces.
   */
  private Response records(String method, Map<String, String> query, byte[] body, Principal who) throws IOException, ApiException {
    org.cairn.tracker.catalog.CatalogRecords r = records;
    if (r == null) {
      throw new ApiException(503, "this tracker makes no catalog records");
    }
    if (method.equals("GET")) {
      String app = required(query, "app");
      requireApp(who, app);
      org.cairn.core.api.CatalogRecordBlob blob = r.seal(app, required(query, "node"), parseStep(required(query, "step")));
      if (blob == null) {
        throw new ApiException(404, "no such version");
      }
      return json(200, blob);
    }
    requireMethod(method, "POST");
    org.cairn.core.api.RecordAttach a = read(body, org.cairn.core.api.RecordAttach.class);
    requireApp(who, required(a.app(), "app"));
    CommitRequest.NewChunk nc = a.chunk();
    if (nc == null) {
      throw new ApiException(400, "field 'chunk' (an object) is required");
    }
    boolean attached = r.attach(a.app(), required(a.node(), "node"), a.step(), new Catalog.NewChunk(
        ChunkId.parse(required(nc.id(), "chunk.id")), nc.holders() == null ? List.of() : nc.holders(), nc.storedBytes(), nc.tags(),
        nc.redundancy()));
    return json(200, new org.cairn.core.api.RecordAttach.Answer(attached));
  }

  /** {@code POST /api/v1/tokens}: the rules of {@code token create}, then a token from this tracker's store of them. */
  private String issueToken(org.cairn.core.api.TokenRequest t) throws IOException, ApiException {
    org.cairn.tracker.auth.Role r = org.cairn.tracker.auth.Role.parse(required(t.role(), "role"));
    String refused = org.cairn.tracker.auth.TokenStore.refusal(r, t.apps() != null || t.readOnly(), t.uses());
    if (refused != null) {
      throw new IllegalArgumentException(refused);
    }
    if (t.expiresInSeconds() != null && t.expiresInSeconds() < 1) {
      throw new IllegalArgumentException("expiresInSeconds must be positive");
    }
    long now = clock.millis();
    String token = credentials.tokens().issue(r, t.apps(), t.readOnly(),
        t.expiresInSeconds() == null ? null : now + t.expiresInSeconds() * 1000, t.uses(), null, t.note(), now);
    PeerCertifier c = certifier;
    return c instanceof org.cairn.tracker.tls.TrackerCa ca ? token + "#sha256:" + ca.pin() : token;
  }

  /** Where {@code GET /api/v1/capacity} reads the grid's space over time. */
  public void setCapacity(org.cairn.tracker.history.CapacityHistory capacity) {
    this.capacity = capacity;
  }

  public void setBackup(Backup backup) {
    this.backup = backup;
  }
  private volatile Principal publicPage = PUBLIC_SUMMARY;

  /**
   * {@code --status-page public}: the status page's read-only GETs work without the token, with no
   * app names (apps, versions, the latest versions in durability and app events are left out) unless
   * {@code apps} ({@code --status-page public-apps}).
   */
  public void setStatusPagePublic(boolean open, boolean apps) {
    this.statusPagePublic = open;
    this.publicPage = apps ? PUBLIC_WITH_APPS : PUBLIC_SUMMARY;
  }

  /** The app an event is about (committed, deleted, repaired: its subject starts with the app), or null. */
  private static String appOf(org.cairn.tracker.events.EventLog.Event e) {
    return switch (e.kind()) {
      case "committed", "deleted" -> e.subject().substring(0, Math.max(0, e.subject().indexOf('.')));
      case "repaired", "repair-failed" -> e.subject().substring(0, Math.max(0, e.subject().indexOf('/')));
      default -> null;
    };
  }

  /** What the status page reads; never writes, manifests (holder addresses per chunk) or metrics. */
  private static boolean readOnly(String path) {
    return path.matches("/api/v1/(health|peers|peers/[^/]+|peers/[^/]+/history|durability|capacity|apps|versions|events|compute"
        + "|compute/[^/]+/history|availability)");
  }

  private static final java.util.Set<String> ASSETS = java.util.Set.of("index.html", "app.js", "style.css", "uPlot.iife.min.js",
      "uPlot.min.css");

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

  /** Who reads the public status page (read-only GETs, no token): no app at all, or every app when the operator opts in. */
  private static final Principal PUBLIC_SUMMARY = new Principal("public", org.cairn.tracker.auth.Role.CLIENT, List.of(), true, null);
  private static final Principal PUBLIC_WITH_APPS = new Principal("public", org.cairn.tracker.auth.Role.CLIENT, null, true, null);

  private static void requireApp(Principal who, String app) throws ApiException {
    String refused = app == null ? null : Access.appRefusal(who, app);
    if (refused != null) {
      throw new ApiException(403, refused);
    }
  }

  private Response route(String method, String[] p, Map<String, String> query, byte[] body, Principal who)
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
        return peers(method, id, action, query, body, who);
      case "dataplane":
        requireMethod(method, "GET");
        return json(200, new org.cairn.core.api.DataPlaneKey(credentials.dataKey().bearerValue()));
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
          requireApp(who, query.get("app"));
          String atLeast = query.get("atLeast");
          return json(200, new HeldChunks(catalog.heldIds(required(query, "app"), atLeast == null ? null : Redundancy.parse(atLeast))));
        }
        if (!"lookup".equals(id)) {
          throw new ApiException(404, "no such endpoint; use GET /api/v1/chunks?app=A or POST /api/v1/chunks/lookup");
        }
        requireMethod(method, "POST");
        return lookup(body, who);
      case "versions":
        return versions(method, query, body, who);
      case "records":
        return records(method, query, body, who);
      case "stores":
        return stores(method, id, action, body, who);
      case "manifest":
        requireMethod(method, "GET");
        requireApp(who, query.get("app"));
        metrics.manifestRead();
        return manifest(query, who);
      case "tickets":
        requireMethod(method, "POST");
        return tickets(body, who);
      case "cluster":
        requireMethod(method, "GET");
        return json(200, cluster.get());
      case "sets": {
        requireMethod(method, "GET");
        String app = required(query, "app");
        requireApp(who, app);
        return json(200, catalog.sets().pending(app, required(query, "node")));
      }
      case "backup": {
        requireMethod(method, "POST");
        org.cairn.core.api.BackupRequest b = read(body, org.cairn.core.api.BackupRequest.class);
        String to = required(b.to(), "to");
        if (!java.nio.file.Path.of(to).isAbsolute()) {
          throw new ApiException(400, "to must be an absolute path on the tracker's host, was '" + to + "'");
        }
        if (backup == null) {
          throw new ApiException(503, "this tracker cannot make backups");
        }
        return json(200, backup.to(java.nio.file.Path.of(to)));
      }
      case "tokens": {
        requireMethod(method, "POST");
        org.cairn.core.api.TokenRequest t = read(body, org.cairn.core.api.TokenRequest.class);
        return json(200, new org.cairn.core.api.TokenRequest.Answer(issueToken(t)));
      }
      case "capacity": {
        requireMethod(method, "GET");
        org.cairn.tracker.history.CapacityHistory c = capacity;
        if (c == null) {
          throw new ApiException(404, "this tracker keeps no capacity history");
        }
        return json(200, c.series(org.cairn.core.config.Durations.parse(query.getOrDefault("window", "24h"))));
      }
      case "durability":
        requireMethod(method, "GET");
        return json(200, repair.durability().onlyApps(who::covers));
      case "events": {
        requireMethod(method, "GET");
        long after = query.containsKey("after") ? parseLong(query.get("after"), "after") : 0;
        return json(200, Map.of("events", events.since(after, 500).stream().filter(e -> who.covers(appOf(e))).toList()));
      }
      case "apps":
        requireMethod(method, "GET");
        return json(200, catalog.appSummaries().stream().filter(a -> who.covers(a.app())).toList());
      case "policy":
        if (method.equals("GET")) {
          String app = required(query, "app");
          requireApp(who, app);
          return json(200, new FolderPolicy(app, catalog.policy(app)));
        }
        requireMethod(method, "POST");
        {
          FolderPolicy f = read(body, FolderPolicy.class);
          requireApp(who, f.app());
          catalog.setPolicy(required(f.app(), "app"), required(f.folder(), "folder"));
          return json(200, new FolderPolicy(f.app(), catalog.policy(f.app())));
        }
      default:
        throw new ApiException(404, "no such endpoint: /api/v1/" + resource);
    }
  }

  private Response peers(String method, String id, String action, Map<String, String> query, byte[] body, Principal who)
      throws ApiException, IOException {
    if (id == null) {
      if (method.equals("GET")) {
        return json(200, membership.peers());
      }
      requireMethod(method, "POST");
      RegisterRequest r = read(body, RegisterRequest.class);
      return register(r, who);
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
        if (h.softBoot() != null && h.softDurable() != null) {
          catalog.soft().onHeartbeat(id, h.softBoot(), h.softDurable());
        }
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
        Inventory inv = read(body, Inventory.class);
        List<String> hex = inv.keys() == null ? List.of() : inv.keys();
        if (hex.size() > 100_000) {
          throw new ApiException(400, "send at most 100,000 keys per call, got " + hex.size());
        }
        List<byte[]> keys = new java.util.ArrayList<>();
        for (String k : hex) {
          keys.add(fragmentKey(k));
        }
        List<String> garbage = new java.util.ArrayList<>();
        for (byte[] k : catalog.garbage(id, keys)) {
          garbage.add(java.util.HexFormat.of().formatHex(k));
        }
        return json(200, new Inventory.Garbage(garbage));
      }
      case "repair": {
        // a peer claims repair jobs
        requireMethod(method, "POST");
        requirePeer(id);
        RepairClaim claim = body.length == 0 ? new RepairClaim(4) : read(body, RepairClaim.class);
        int max = Math.max(0, Math.min(64, claim.max() == null ? 4 : claim.max()));
        List<org.cairn.core.api.RepairJob> jobs = new java.util.ArrayList<>();
        for (org.cairn.core.api.RepairJob j : repair.claim(id, max)) {
          jobs.add(withTickets(j, who));
        }
        return json(200, new RepairClaim.Jobs(jobs, repair.queued()));
      }
      case "repaired": {
        requireMethod(method, "POST");
        requirePeer(id);
        RepairClaim.Report report = read(body, RepairClaim.Report.class);
        List<org.cairn.core.api.RepairOutcome> outcomes = report.outcomes() == null ? List.of() : report.outcomes();
        repair.report(id, outcomes);
        return json(200, new RepairClaim.Accepted(outcomes.size()));
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
        BadPieces report = read(body, BadPieces.class);
        String reporter = report.reporter() == null ? id : report.reporter();
        List<BadPieces.Piece> pieces = report.fragments() == null ? List.of() : report.fragments();
        if (pieces.size() > 100_000) {
          throw new ApiException(400, "report at most 100,000 fragments per call, got " + pieces.size());
        }
        Map<byte[], String> fragments = new LinkedHashMap<>();
        for (BadPieces.Piece f : pieces) {
          fragments.put(fragmentKey(f.key()), f.reason() == null ? "bad" : f.reason());
        }
        return json(200, new BadPieces.Answer(repair.reportBad(id, fragments, reporter)));
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

  /**
   * A registration. A peer credential registers only as its own peer; a donor enrollment token
   * registers a new peer (taking one of its uses) and the answer carries that peer's own credential.
   * Every registration's answer carries the data-plane key.
   */
  private Response register(RegisterRequest r, Principal who) throws ApiException, IOException {
    org.cairn.tracker.auth.Role role = who.role();
    if (role == org.cairn.tracker.auth.Role.PEER && !who.peer().equals(r.id())) {
      throw new ApiException(403, who.describe() + " may register only as peer " + who.peer());
    }
    if (role == org.cairn.tracker.auth.Role.DONOR) {
      if (r.id() != null && membership.peer(r.id()) != null) {
        throw new ApiException(403, "peer " + r.id() + " is already registered; it registers again with its own credential"
            + " (the peer.credential file in its data directory), or ask the operator");
      }
      if (!credentials.tokens().takeUse(who.tokenId())) {
        throw new ApiException(403, "enrollment token " + who.tokenId() + " has no registrations left");
      }
    }
    PeerView v = membership.register(r);
    metrics.heartbeat();
    String credential = role == org.cairn.tracker.auth.Role.DONOR
        ? credentials.tokens().issue(org.cairn.tracker.auth.Role.PEER, null, false, null, null, v.id(),
            "issued to peer " + v.id() + " at registration with " + who.tokenId(), clock.millis())
        : null;
    if (credential != null) {
      LOG.info("peer {} joined with enrollment token {}; issued its own credential", v.id(), who.tokenId());
    }
    PeerCertifier.Issued cert = null;
    if (r.publicKey() != null && certifier != null) {
      try {
        cert = certifier.certify(v.id(), HostPort.parse(v.address()).host(), r.publicKey());
      } catch (IllegalArgumentException | IOException e) {
        throw new ApiException(400, e.getMessage());
      }
    }
    return json(200, new HeartbeatResponse(v.id(), heartbeatInterval.toMillis(), clock.millis(), repair.queued(),
        credentials.dataKey().bearerValue(), credential, cert == null ? null : cert.certificate(),
        cert == null ? null : cert.caCertificate(), credentials.tickets().peerKey(v.id())));
  }

  private Response compute(String method, String id, String action, Map<String, String> query, byte[] body)
      throws ApiException, IOException {
    if (id == null) {
      requireMethod(method, "GET");
      return json(200, new TreeMap<>(membership.computeStates()));
    }
    if ("heartbeat".equals(action)) {
      requireMethod(method, "POST");
      ComputeState c = body.length == 0 ? new ComputeState(id, "UP") : read(body, ComputeState.class);
      String state = c.state() == null ? "UP" : c.state();
      if (!state.equalsIgnoreCase("UP") && !state.equalsIgnoreCase("DOWN")) {
        throw new ApiException(400, "compute state must be UP or DOWN, was '" + state + "'");
      }
      membership.computeHeartbeat(id, state.equalsIgnoreCase("UP"));
      return json(200, new ComputeState(id, state.toUpperCase(java.util.Locale.ROOT), heartbeatInterval.toMillis()));
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
    BandwidthReport r = read(body, BandwidthReport.class);
    placement.reportBandwidth(required(r.client(), "client"), required(r.peer(), "peer"), r.bytesPerSecond(), "probe".equals(r.source()));
    return json(200, Map.of("client", r.client(), "peer", r.peer()));
  }

  private Response placement(byte[] body) throws IOException, ApiException, NotEnoughHostsException {
    PlacementQuery q = read(body, PlacementQuery.class);
    String client = required(q.client(), "client");
    int m = q.m() == null ? 3 : q.m();
    int k = q.k() == null ? 2 : q.k();
    PlacementPolicy policy = PlacementPolicy.parse(q.policy() == null ? "falcon" : q.policy());
    double interval = q.intervalSeconds() == null ? 600 : q.intervalSeconds();
    double useful = q.usefulSeconds() == null ? 0 : q.usefulSeconds();
    double mttf = q.mttfSeconds() != null ? q.mttfSeconds() : Math.max(interval, placement.mttfSeconds(client));
    PlacementRequest request = new PlacementRequest(q.imageBytes(), m, k, mttf, interval, useful,
        q.defaultBytesPerSecond() == null ? 12.5e6 : q.defaultBytesPerSecond(), q.alternates() == null ? m + k : q.alternates());
    Placement p = placement.place(client, policy, request);
    Map<String, PeerView> peers = new java.util.HashMap<>();
    for (PeerView v : membership.peers()) {
      peers.put(v.id(), v);
    }
    java.util.function.Function<String, PlacementAnswer.PlacedHost> host = h -> {
      double age = placement.bandwidthAgeSeconds(client, h);
      PeerView v = peers.get(h);
      double disk = v == null ? 0 : v.diskWriteBytesPerSecond();
      return new PlacementAnswer.PlacedHost(h, v == null ? null : v.address(), age < 0 ? null : placement.bandwidth(client, h),
          age < 0 ? null : age, disk > 0 ? disk : null);
    };
    return json(200, new PlacementAnswer(policy.name(), p.hosts().stream().map(host).toList(), p.alternates().stream().map(host).toList(),
        Double.isNaN(p.objective()) ? null : p.objective()));
  }

  private Response lookup(byte[] body, Principal who) throws IOException, ApiException {
    JsonNode n = JSON.readTree(body);
    String app = text(n, "app");
    requireApp(who, app);
    List<ChunkId> ids = new java.util.ArrayList<>();
    for (JsonNode id : n.path("ids")) {
      ids.add(ChunkId.parse(id.asText()));
    }
    if (ids.size() > 100_000) {
      throw new ApiException(400, "look up at most 100,000 ids per call, got " + ids.size());
    }
    return json(200, Map.of("held", catalog.lookup(app, ids)));
  }

  private Response versions(String method, Map<String, String> query, byte[] body, Principal who) throws IOException, ApiException {
    switch (method) {
      case "GET": {
        String app = required(query, "app");
        requireApp(who, app);
        String node = required(query, "node");
        List<VersionRow> vs = new java.util.ArrayList<>();
        for (Catalog.Listed l : catalog.listed(app, node)) {
          VersionRow v = l.row();
          vs.add(v.withStatus(catalog.soft().isSoft(app, node, v.step()) ? "soft" : repair.status(app, l.chunks())));
        }
        return json(200, vs);
      }
      case "POST": {
        CommitRequest c = read(body, CommitRequest.class);
        if (c.manifest() == null) {
          throw new ApiException(400, "field 'manifest' (an object) is required");
        }
        requireApp(who, c.manifest().app());
        List<Catalog.NewChunk> chunks = new java.util.ArrayList<>();
        for (CommitRequest.NewChunk nc : c.chunks() == null ? List.<CommitRequest.NewChunk>of() : c.chunks()) {
          chunks.add(new Catalog.NewChunk(ChunkId.parse(required(nc.id(), "chunks[].id")),
              nc.holders() == null ? List.of() : nc.holders(), nc.storedBytes(), nc.tags(), nc.redundancy(),
              nc.base() == null ? null : ChunkId.parse(nc.base())));
        }
        long step = catalog.commit(c.manifest(), chunks, c.session(), c.soft());
        if (c.session() != null) {
          catalog.pending().close(c.session()); // committed: the index now names its pieces
        }
        metrics.committed();
        org.cairn.core.manifest.Manifest.SetPart set = c.manifest().set();
        if (set == null) {
          return json(200, new CommitRequest.Answer(c.manifest().app(), c.manifest().node(), step));
        }
        int committed = step > 0 ? set.parts()
            : catalog.sets().progress(c.manifest().app(), c.manifest().node(), set.name()).committed();
        return json(200, new CommitRequest.Answer(c.manifest().app(), c.manifest().node(), step, set.name(), set.parts(), committed));
      }
      case "DELETE": {
        requireApp(who, query.get("app"));
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
  private Response stores(String method, String session, String action, byte[] body, Principal who) throws ApiException, IOException {
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
    PendingRequest r = read(body, PendingRequest.class);
    List<ChunkId> ids = new java.util.ArrayList<>();
    for (String c : r.chunks() == null ? List.<String>of() : r.chunks()) {
      ids.add(ChunkId.parse(c));
    }
    int pending = catalog.pending().add(session, ids);
    // WRITE tickets for these chunks on every host the store may send them to
    List<org.cairn.core.api.TicketGrant> grants = new java.util.ArrayList<>();
    if (!ids.isEmpty() && r.hosts() != null) {
      if (r.hosts().size() > 256) {
        throw new ApiException(400, "name at most 256 hosts, got " + r.hosts().size());
      }
      for (String host : new java.util.LinkedHashSet<>(r.hosts())) {
        PeerView v = membership.peer(host);
        if (v != null) {
          grants.addAll(grants(org.cairn.core.security.Ticket.Op.WRITE, v, who, ids, TicketIssuer.TTL));
        }
      }
    }
    return json(200, new PendingRequest.Answer(session, pending, grants));
  }

  private List<org.cairn.core.api.TicketGrant> grants(org.cairn.core.security.Ticket.Op op, PeerView peer, Principal who,
      List<ChunkId> chunks, Duration ttl) {
    List<org.cairn.core.api.TicketGrant> out = new java.util.ArrayList<>();
    for (org.cairn.core.security.Ticket t : credentials.tickets().issue(op, peer.id(), who.role().spec() + ":" + who.tokenId(), chunks, ttl)) {
      out.add(org.cairn.core.api.TicketGrant.of(peer.id(), peer.address(), t));
    }
    return out;
  }

  /** A repair job with READ tickets for its chunk on the sources and WRITE tickets on the targets. */
  private org.cairn.core.api.RepairJob withTickets(org.cairn.core.api.RepairJob j, Principal who) {
    List<ChunkId> chunk = List.of(ChunkId.parse(j.chunk()));
    List<org.cairn.core.api.TicketGrant> grants = new java.util.ArrayList<>();
    java.util.Set<String> done = new java.util.HashSet<>();
    for (org.cairn.core.api.RepairJob.Piece s : j.sources()) {
      PeerView v = membership.peer(s.peer());
      if (v != null && done.add("R" + v.id())) {
        grants.addAll(grants(org.cairn.core.security.Ticket.Op.READ, v, who, chunk, TicketIssuer.TTL));
      }
    }
    for (org.cairn.core.api.RepairJob.Piece t : j.targets()) {
      PeerView v = membership.peer(t.peer());
      if (v != null && done.add("W" + v.id())) {
        grants.addAll(grants(org.cairn.core.security.Ticket.Op.WRITE, v, who, chunk, TicketIssuer.TTL));
      }
    }
    return j.withTickets(grants);
  }

  /** {@code POST /api/v1/tickets} (admin): tickets an operator's tool asks for by hand. */
  private Response tickets(byte[] body, Principal who) throws ApiException, IOException {
    org.cairn.core.api.TicketRequest r = read(body, org.cairn.core.api.TicketRequest.class);
    org.cairn.core.security.Ticket.Op op;
    try {
      op = org.cairn.core.security.Ticket.Op.valueOf(required(r.op(), "op"));
      if (op == org.cairn.core.security.Ticket.Op.LIST) {
        throw new IllegalArgumentException("LIST"); // only recovery signs those, offline, with the ticket key
      }
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, "op must be READ or WRITE, was '" + r.op() + "'");
    }
    PeerView v = membership.peer(required(r.peer(), "peer"));
    if (v == null) {
      throw new ApiException(404, "unknown peer '" + r.peer() + "'");
    }
    if (r.chunks() == null || r.chunks().isEmpty()) {
      throw new ApiException(400, "field 'chunks' (hex chunk ids) is required");
    }
    List<ChunkId> ids = new java.util.ArrayList<>();
    for (String c : r.chunks()) {
      ids.add(ChunkId.parse(c));
    }
    long ttl = r.ttlSeconds() == null ? TicketIssuer.TTL.toSeconds() : r.ttlSeconds();
    if (ttl < 1 || ttl > TicketIssuer.TTL.toSeconds()) {
      throw new ApiException(400, "ttlSeconds must be 1-" + TicketIssuer.TTL.toSeconds() + ", was " + ttl);
    }
    return json(200, new org.cairn.core.api.TicketRequest.Answer(grants(op, v, who, ids, Duration.ofSeconds(ttl))));
  }

  /** The manifest plus, per distinct chunk, its own coding and its holders with their address, state and the piece's tag. */
  private Response manifest(Map<String, String> query, Principal who) throws IOException, ApiException {
    String step = query.getOrDefault("step", "latest");
    int part = -1;
    if (query.containsKey("part")) {
      try {
        part = Integer.parseInt(query.get("part"));
      } catch (NumberFormatException e) {
        throw new ApiException(400, "part must be a number, was '" + query.get("part") + "'");
      }
      if (part < 0) {
        throw new ApiException(400, "part must be >= 0, was " + part);
      }
    }
    Catalog.Located m = catalog.manifest(required(query, "app"), required(query, "node"),
        step.equals("latest") ? 0 : parseStep(step), part);
    if (m == null) {
      throw new ApiException(404, "no committed version of " + query.get("app") + "." + query.get("node")
          + (step.equals("latest") ? "" : "." + step));
    }
    Map<String, PeerView> peers = new java.util.HashMap<>();
    for (PeerView v : membership.peers()) {
      peers.put(v.id(), v);
    }
    Map<String, LocatedChunk> chunks = new LinkedHashMap<>();
    Map<String, List<ChunkId>> byHolder = new LinkedHashMap<>();
    for (Map.Entry<ChunkId, ChunkRecord> e : m.chunks().entrySet()) {
      String hex = e.getKey().hex();
      ChunkRecord r = e.getValue();
      List<LocatedChunk.Holder> holders = new java.util.ArrayList<>();
      if (r != null) {
        for (int i = 0; i < r.holders().size(); i++) {
          PeerView v = r.holders().get(i) == null ? null : peers.get(r.holders().get(i));
          holders.add(v == null || r.tag(i) == null ? null
              : new LocatedChunk.Holder(v.id(), v.address(), HostState.valueOf(v.state()), r.tag(i)));
          if (v != null) {
            List<ChunkId> held = byHolder.computeIfAbsent(v.id(), k -> new java.util.ArrayList<>());
            if (held.isEmpty() || !held.get(held.size() - 1).equals(e.getKey())) {
              held.add(e.getKey());
            }
          }
        }
      }
      chunks.put(hex, new LocatedChunk(hex, r == null ? null : (r.redundancy() == null ? m.manifest().redundancy() : r.redundancy()),
          holders, r == null ? null : r.base()));
    }
    // a READ ticket per holder for its pieces of this version (fetch, verify)
    List<org.cairn.core.api.TicketGrant> grants = new java.util.ArrayList<>();
    for (Map.Entry<String, List<ChunkId>> h : byHolder.entrySet()) {
      grants.addAll(grants(org.cairn.core.security.Ticket.Op.READ, peers.get(h.getKey()), who, h.getValue(), TicketIssuer.TTL));
    }
    return json(200, new LocatedVersion(m.manifest(), chunks, grants));
  }

  /** A fragment key from 74 hex digits (chunk id + index + tag), or a 400 naming the bad value. */
  private static byte[] fragmentKey(String hex) throws ApiException {
    if (hex == null || hex.length() != 2 * FragmentKey.SIZE || !hex.matches("[0-9a-fA-F]*")) {
      throw new ApiException(400, "fragment key must be " + 2 * FragmentKey.SIZE + " hex digits (chunk id + index + tag), was '" + hex + "'");
    }
    return java.util.HexFormat.of().parseHex(hex);
  }

  private static String required(String value, String name) throws ApiException {
    if (value == null || value.isBlank()) {
      throw new ApiException(400, "field '" + name + "' is required");
    }
    return value;
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

  /**
   * 503 from a member of a tracker group that cannot serve a call because it does not lead: the body
   * names the leader when known ({@code "leader"}, empty while an election runs), so clients try
   * another member.
   */
  public static Response notLeader(String message, String leader) {
    return json(503, new org.cairn.core.api.NotLeaderError(503, message, leader == null ? "" : leader));
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
