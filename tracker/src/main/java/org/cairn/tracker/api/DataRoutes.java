package org.cairn.tracker.api;

import static org.cairn.tracker.api.Requests.json;
import static org.cairn.tracker.api.Requests.parseStep;
import static org.cairn.tracker.api.Requests.read;
import static org.cairn.tracker.api.Requests.requireApp;
import static org.cairn.tracker.api.Requests.requireMethod;
import static org.cairn.tracker.api.Requests.required;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.cairn.core.api.Acknowledged;
import org.cairn.core.api.BandwidthReport;
import org.cairn.core.api.ChunkLookup;
import org.cairn.core.api.HeldChunks;
import org.cairn.core.api.LocatedChunk;
import org.cairn.core.api.LocatedVersion;
import org.cairn.core.api.PeerView;
import org.cairn.core.api.PendingRequest;
import org.cairn.core.api.PlacementAnswer;
import org.cairn.core.api.PlacementQuery;
import org.cairn.core.api.TicketGrant;
import org.cairn.core.api.TicketRequest;
import org.cairn.core.availability.HostState;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementPolicy;
import org.cairn.core.placement.PlacementRequest;
import org.cairn.core.security.Ticket;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.auth.TicketIssuer;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.VersionReads;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;

/**
 * What a store and a fetch ask before and around moving pieces: placement and bandwidth reports, the
 * chunks an app holds (dedup), a store's pending chunks with their WRITE tickets, a version's manifest
 * with its holders and READ tickets, and tickets an operator's tool asks for.
 */
final class DataRoutes {
  private final Membership membership;
  private final PlacementService placement;
  private final Catalog catalog;
  private final Metrics metrics;
  private final Grants grants;

  DataRoutes(Membership membership, PlacementService placement, Catalog catalog, Metrics metrics, Grants grants) {
    this.membership = membership;
    this.placement = placement;
    this.catalog = catalog;
    this.metrics = metrics;
    this.grants = grants;
  }

  /** {@code POST /api/v1/bandwidth}: a client's measured throughput to a peer. */
  Response bandwidth(String method, byte[] body) throws IOException, ApiException {
    requireMethod(method, "POST");
    BandwidthReport r = read(body, BandwidthReport.class);
    placement.reportBandwidth(required(r.client(), "client"), required(r.peer(), "peer"), r.bytesPerSecond(), "probe".equals(r.source()));
    return json(200, new Acknowledged.BandwidthNoted(r.client(), r.peer()));
  }

  /** {@code POST /api/v1/placement}: the hosts a store should write to, and alternates. */
  Response placement(String method, byte[] body) throws IOException, ApiException, NotEnoughHostsException {
    requireMethod(method, "POST");
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
    Map<String, PeerView> peers = peersById();
    Function<String, PlacementAnswer.PlacedHost> host = h -> {
      double age = placement.bandwidthAgeSeconds(client, h);
      PeerView v = peers.get(h);
      double disk = v == null ? 0 : v.diskWriteBytesPerSecond();
      return new PlacementAnswer.PlacedHost(h, v == null ? null : v.address(), age < 0 ? null : placement.bandwidth(client, h),
          age < 0 ? null : age, disk > 0 ? disk : null);
    };
    return json(200, new PlacementAnswer(policy.name(), p.hosts().stream().map(host).toList(), p.alternates().stream().map(host).toList(),
        Double.isNaN(p.objective()) ? null : p.objective()));
  }

  /** {@code GET /api/v1/chunks?app=A[&atLeast=SPEC]} and {@code POST /api/v1/chunks/lookup}. */
  Response chunks(String method, String id, Map<String, String> query, byte[] body, Principal who) throws IOException, ApiException {
    if (id == null && method.equals("GET")) {
      requireApp(who, query.get("app"));
      String atLeast = query.get("atLeast");
      return json(200, new HeldChunks(catalog.reads().heldIds(required(query, "app"), atLeast == null ? null : Redundancy.parse(atLeast))));
    }
    if (!"lookup".equals(id)) {
      throw new ApiException(404, "no such endpoint; use GET /api/v1/chunks?app=A or POST /api/v1/chunks/lookup");
    }
    requireMethod(method, "POST");
    ChunkLookup l = read(body, ChunkLookup.class);
    String app = required(l.app(), "app");
    requireApp(who, app);
    List<ChunkId> ids = new ArrayList<>();
    for (String hex : l.ids() == null ? List.<String>of() : l.ids()) {
      ids.add(ChunkId.parse(hex));
    }
    if (ids.size() > 100_000) {
      throw new ApiException(400, "look up at most 100,000 ids per call, got " + ids.size());
    }
    return json(200, new ChunkLookup.Answer(catalog.reads().lookup(app, ids)));
  }

  /**
   * A store in flight names the chunks it sends before sending them, so GC spares their pieces until
   * the commit: {@code POST /api/v1/stores/{session}/pending {"chunks":[hex...]}} (an empty list keeps
   * the session alive), {@code DELETE /api/v1/stores/{session}} when the store gives up.
   */
  Response stores(String method, String session, String action, byte[] body, Principal who) throws ApiException, IOException {
    if (session == null) {
      throw new ApiException(404, "no such endpoint; use POST /api/v1/stores/{session}/pending or DELETE /api/v1/stores/{session}");
    }
    if (action == null) {
      requireMethod(method, "DELETE");
      return json(200, new Acknowledged.SessionClosed(catalog.pending().close(session)));
    }
    if (!action.equals("pending")) {
      throw new ApiException(404, "no such endpoint; use POST /api/v1/stores/{session}/pending");
    }
    requireMethod(method, "POST");
    PendingRequest r = read(body, PendingRequest.class);
    List<ChunkId> ids = new ArrayList<>();
    for (String c : r.chunks() == null ? List.<String>of() : r.chunks()) {
      ids.add(ChunkId.parse(c));
    }
    int pending = catalog.pending().add(session, ids);
    // WRITE tickets for these chunks on every host the store may send them to
    List<TicketGrant> out = new ArrayList<>();
    if (!ids.isEmpty() && r.hosts() != null) {
      if (r.hosts().size() > 256) {
        throw new ApiException(400, "name at most 256 hosts, got " + r.hosts().size());
      }
      for (String host : new LinkedHashSet<>(r.hosts())) {
        PeerView v = membership.peer(host);
        if (v != null) {
          out.addAll(grants.of(Ticket.Op.WRITE, v, who, ids, TicketIssuer.TTL));
        }
      }
    }
    return json(200, new PendingRequest.Answer(session, pending, out));
  }

  /** {@code POST /api/v1/tickets} (admin): tickets an operator's tool asks for by hand. */
  Response tickets(String method, byte[] body, Principal who) throws ApiException, IOException {
    requireMethod(method, "POST");
    TicketRequest r = read(body, TicketRequest.class);
    Ticket.Op op;
    try {
      op = Ticket.Op.valueOf(required(r.op(), "op"));
      if (op == Ticket.Op.LIST) {
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
    List<ChunkId> ids = new ArrayList<>();
    for (String c : r.chunks()) {
      ids.add(ChunkId.parse(c));
    }
    long ttl = r.ttlSeconds() == null ? TicketIssuer.TTL.toSeconds() : r.ttlSeconds();
    if (ttl < 1 || ttl > TicketIssuer.TTL.toSeconds()) {
      throw new ApiException(400, "ttlSeconds must be 1-" + TicketIssuer.TTL.toSeconds() + ", was " + ttl);
    }
    return json(200, new TicketRequest.Answer(grants.of(op, v, who, ids, Duration.ofSeconds(ttl))));
  }

  /**
   * The manifest plus, per distinct chunk, its own coding and its holders with their address, state and the piece's tag,
   * and READ tickets for them. With {@code holders=none}, each chunk's coding and base only, no holders nor tickets: what
   * a store coding against the previous version needs first (a sixth of the answer; the holders are asked for only if a
   * base must be read from the grid).
   */
  Response manifest(String method, Map<String, String> query, Principal who) throws IOException, ApiException {
    requireMethod(method, "GET");
    requireApp(who, query.get("app"));
    metrics.manifestRead();
    String holdersParam = query.getOrDefault("holders", "all");
    if (!holdersParam.equals("all") && !holdersParam.equals("none")) {
      throw new ApiException(400, "holders must be all or none, was '" + holdersParam + "'");
    }
    boolean withHolders = holdersParam.equals("all");
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
    VersionReads.Located m = catalog.reads().manifest(required(query, "app"), required(query, "node"),
        step.equals("latest") ? 0 : parseStep(step), part);
    if (m == null) {
      throw new ApiException(404, "no committed version of " + query.get("app") + "." + query.get("node")
          + (step.equals("latest") ? "" : "." + step));
    }
    // no holders: no peers looked up, no tickets (byHolder stays empty)
    Map<String, PeerView> peers = withHolders ? peersById() : Map.of();
    Map<String, LocatedChunk> chunks = new LinkedHashMap<>();
    Map<String, List<ChunkId>> byHolder = new LinkedHashMap<>();
    for (Map.Entry<ChunkId, ChunkRecord> e : m.chunks().entrySet()) {
      String hex = e.getKey().hex();
      ChunkRecord r = e.getValue();
      List<LocatedChunk.Holder> holders = new ArrayList<>();
      if (r != null && withHolders) {
        for (int i = 0; i < r.holders().size(); i++) {
          PeerView v = r.holders().get(i) == null ? null : peers.get(r.holders().get(i));
          holders.add(v == null || r.tag(i) == null ? null
              : new LocatedChunk.Holder(v.id(), v.address(), HostState.valueOf(v.state()), r.tag(i)));
          if (v != null) {
            List<ChunkId> held = byHolder.computeIfAbsent(v.id(), k -> new ArrayList<>());
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
    List<TicketGrant> out = new ArrayList<>();
    for (Map.Entry<String, List<ChunkId>> h : byHolder.entrySet()) {
      out.addAll(grants.of(Ticket.Op.READ, peers.get(h.getKey()), who, h.getValue(), TicketIssuer.TTL));
    }
    return json(200, new LocatedVersion(m.manifest(), chunks, out));
  }

  private Map<String, PeerView> peersById() {
    Map<String, PeerView> peers = new HashMap<>();
    for (PeerView v : membership.peers()) {
      peers.put(v.id(), v);
    }
    return peers;
  }
}
