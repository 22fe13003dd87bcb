package org.cairn.tracker.api.route;

import static org.cairn.tracker.api.call.Requests.parseStep;
import static org.cairn.tracker.api.call.Requests.required;

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
import org.cairn.core.api.Endpoints;
import org.cairn.core.api.catalog.ChunkLookup;
import org.cairn.core.api.catalog.HeldChunks;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.api.catalog.PendingRequest;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;
import org.cairn.core.api.member.BandwidthReport;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.member.TicketGrant;
import org.cairn.core.api.member.TicketRequest;
import org.cairn.core.availability.HostState;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementPolicy;
import org.cairn.core.placement.PlacementRequest;
import org.cairn.core.security.Ticket;
import org.cairn.tracker.api.call.ApiException;
import org.cairn.tracker.api.call.Bindings;
import org.cairn.tracker.api.call.Call;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.auth.TicketIssuer;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.ChunkRecord;
import org.cairn.tracker.catalog.VersionReads;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;

/**
 * What a store and a fetch ask before and around moving pieces: placement and bandwidth reports, the
 * chunks an app holds (dedup), a store's pending chunks with their WRITE tickets, a version's manifest
 * with its holders and READ tickets, and tickets an operator's tool asks for.
 */
public final class DataRoutes {
  private final Membership membership;
  private final PlacementService placement;
  private final Catalog catalog;
  private final Metrics metrics;
  private final Grants grants;

  public DataRoutes(Membership membership, PlacementService placement, Catalog catalog, Metrics metrics, Grants grants) {
    this.membership = membership;
    this.placement = placement;
    this.catalog = catalog;
    this.metrics = metrics;
    this.grants = grants;
  }

  public void bind(Bindings b) {
    b.on(Endpoints.BANDWIDTH, c -> {
      BandwidthReport r = c.body();
      placement.reportBandwidth(required(r.client(), "client"), required(r.peer(), "peer"), r.bytesPerSecond(), "probe".equals(r.source()));
      return new Acknowledged.BandwidthNoted(r.client(), r.peer());
    });
    b.on(Endpoints.PLACEMENT, c -> placement(c.body()));
    b.on(Endpoints.CHUNKS, c -> {
      String atLeast = c.query().get("atLeast");
      return new HeldChunks(catalog.reads().heldIds(required(c.query(), "app"), atLeast == null ? null : Redundancy.parse(atLeast)));
    });
    b.on(Endpoints.CHUNK_LOOKUP, this::lookup);
    b.on(Endpoints.PENDING, this::pending);
    b.on(Endpoints.ABANDON, c -> new Acknowledged.SessionClosed(catalog.pending().close(c.param("session"), c.who().tokenId())));
    b.on(Endpoints.TICKETS, this::tickets);
    b.on(Endpoints.MANIFEST, this::manifest);
  }

  /** {@code POST /api/v1/placement}: the hosts a store should write to, and alternates. */
  private PlacementAnswer placement(PlacementQuery q) throws IOException, ApiException, NotEnoughHostsException {
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
    // only the chosen hosts and alternates are looked up, not every peer (docs/simulation.md, "Findings")
    Function<String, PlacementAnswer.PlacedHost> host = h -> {
      double age = placement.bandwidthAgeSeconds(client, h);
      PeerView v = membership.peer(h);
      double disk = v == null ? 0 : v.diskWriteBytesPerSecond();
      return new PlacementAnswer.PlacedHost(h, v == null ? null : v.address(), age < 0 ? null : placement.bandwidth(client, h),
          age < 0 ? null : age, disk > 0 ? disk : null);
    };
    return new PlacementAnswer(policy.name(), p.hosts().stream().map(host).toList(), p.alternates().stream().map(host).toList(),
        Double.isNaN(p.objective()) ? null : p.objective());
  }

  /** {@code POST /api/v1/chunks/lookup}: whether the app holds each chunk. */
  private ChunkLookup.Answer lookup(Call<ChunkLookup> c) throws IOException, ApiException {
    String app = required(c.body().app(), "app");
    List<String> hex = c.body().ids() == null ? List.of() : c.body().ids();
    if (hex.size() > 100_000) {
      throw new ApiException(400, "look up at most 100,000 ids per call, got " + hex.size());
    }
    List<ChunkId> ids = new ArrayList<>();
    for (String h : hex) {
      ids.add(ChunkId.parse(h));
    }
    return new ChunkLookup.Answer(catalog.reads().lookup(app, ids));
  }

  /**
   * A store in flight names the chunks it sends before sending them, so GC spares their pieces until
   * the commit: {@code POST /api/v1/stores/{session}/pending {"app":A,"chunks":[hex...]}} (an empty list
   * keeps the session alive; at most {@link PendingRequest#MAX_CHUNKS} a call). The session is bound to
   * its app and to the caller's token at its first call; {@code DELETE /api/v1/stores/{session}} when
   * the store gives up.
   */
  private PendingRequest.Answer pending(Call<PendingRequest> c) throws ApiException, IOException {
    PendingRequest r = c.body();
    String session = c.param("session");
    String app = required(r.app(), "app");
    List<String> hex = r.chunks() == null ? List.<String>of() : r.chunks();
    if (hex.size() > PendingRequest.MAX_CHUNKS) {
      throw new ApiException(400, "name at most " + PendingRequest.MAX_CHUNKS + " chunks per call, got " + hex.size());
    }
    if (r.hosts() != null && r.hosts().size() > 256) {
      throw new ApiException(400, "name at most 256 hosts, got " + r.hosts().size());
    }
    List<ChunkId> ids = new ArrayList<>();
    for (String h : hex) {
      ids.add(ChunkId.parse(h));
    }
    int pending = catalog.pending().add(session, app, c.who().tokenId(), ids);
    // WRITE tickets for these chunks on every host the store may send them to
    List<TicketGrant> out = new ArrayList<>();
    if (!ids.isEmpty() && r.hosts() != null) {
      for (String host : new LinkedHashSet<>(r.hosts())) {
        PeerView v = host == null ? null : membership.peer(host);
        if (v != null) {
          out.addAll(grants.of(Ticket.Op.WRITE, v, c.who(), ids, TicketIssuer.TTL));
        }
      }
    }
    return new PendingRequest.Answer(session, pending, out);
  }

  /** {@code POST /api/v1/tickets} (admin): tickets an operator's tool asks for by hand. */
  private TicketRequest.Answer tickets(Call<TicketRequest> c) throws ApiException, IOException {
    TicketRequest r = c.body();
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
    for (String hex : r.chunks()) {
      ids.add(ChunkId.parse(hex));
    }
    long ttl = r.ttlSeconds() == null ? TicketIssuer.TTL.toSeconds() : r.ttlSeconds();
    if (ttl < 1 || ttl > TicketIssuer.TTL.toSeconds()) {
      throw new ApiException(400, "ttlSeconds must be 1-" + TicketIssuer.TTL.toSeconds() + ", was " + ttl);
    }
    return new TicketRequest.Answer(grants.of(op, v, c.who(), ids, Duration.ofSeconds(ttl)));
  }

  /**
   * The manifest plus, per distinct chunk, its own coding and its holders with their address, state and the piece's tag,
   * and READ tickets for them. With {@code holders=none}, each chunk's coding and base only, no holders nor tickets: what
   * a store coding against the previous version needs first (a sixth of the answer; the holders are asked for only if a
   * base must be read from the grid).
   */
  private LocatedVersion manifest(Call<Void> c) throws IOException, ApiException {
    Map<String, String> query = c.query();
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
    // each holder looked up once, as it is met; no holders: no peers looked up, no tickets (byHolder stays empty)
    Map<String, PeerView> peers = new HashMap<>();
    Map<String, LocatedChunk> chunks = new LinkedHashMap<>();
    Map<String, List<ChunkId>> byHolder = new LinkedHashMap<>();
    for (Map.Entry<ChunkId, ChunkRecord> e : m.chunks().entrySet()) {
      String hex = e.getKey().hex();
      ChunkRecord r = e.getValue();
      List<LocatedChunk.Holder> holders = new ArrayList<>();
      if (r != null && withHolders) {
        for (int i = 0; i < r.holders().size(); i++) {
          PeerView v = r.holders().get(i) == null ? null : peers.computeIfAbsent(r.holders().get(i), membership::peer);
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
      out.addAll(grants.of(Ticket.Op.READ, peers.get(h.getKey()), c.who(), h.getValue(), TicketIssuer.TTL));
    }
    return new LocatedVersion(m.manifest(), chunks, out);
  }
}
