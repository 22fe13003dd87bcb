package org.cairn.core.api;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.catalog.AssignedPage;
import org.cairn.core.api.catalog.BackupRequest;
import org.cairn.core.api.catalog.CatalogRecordBlob;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.catalog.FolderPolicy;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.api.catalog.PendingRequest;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;
import org.cairn.core.api.catalog.RecordAttach;
import org.cairn.core.api.catalog.SetProgress;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.api.member.BandwidthReport;
import org.cairn.core.api.member.ComputeState;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.HeartbeatResponse;
import org.cairn.core.api.member.HostHistory;
import org.cairn.core.api.member.Inventory;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.api.member.TicketGrant;
import org.cairn.core.api.member.TicketRequest;
import org.cairn.core.api.repair.BadPieces;
import org.cairn.core.api.repair.RepairClaim;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.api.status.AppSummary;
import org.cairn.core.api.status.CapacitySeries;
import org.cairn.core.api.status.ClusterView;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.security.GridToken;

/**
 * The one client of the tracker's HTTP API, shared by the client library, peers and the tray app:
 * every route as a typed call taking and returning the records of this package. Nothing else names
 * an {@code /api/v1} path: every call is built from its {@link Endpoints} entry. Errors are IOExceptions carrying the tracker's message
 * ({@link TrackerHttp.UnreachableException} when the call may be tried again).
 */
public final class TrackerClient {
  private final TrackerHttp http;

  /** A client of a tracker group (several URLs: calls fail over to the next when one cannot be reached). */
  public TrackerClient(java.util.List<URI> bases, GridToken token, Duration timeout) {
    this.http = new TrackerHttp(bases, token, timeout);
  }

  public TrackerClient(URI base, GridToken token, Duration timeout) {
    this.http = new TrackerHttp(base, token, timeout);
  }

  /** The tracker's base URL. */
  public URI base() {
    return http.base();
  }

  /** Calls from now on present {@code credential} (the one a peer's registration gave it). */
  public void useToken(GridToken credential) {
    http.useToken(credential);
  }

  /**
   * The data-plane key (client and admin credentials). Null from a tracker older than roles, whose
   * data plane takes the grid token itself.
   */
  public GridToken dataPlaneKey() throws IOException {
    try {
      return GridToken.of(call(Endpoints.DATAPLANE, null, Map.of()).key());
    } catch (TrackerHttp.TrackerException e) {
      if (e.status() == 404) {
        return null;
      }
      throw e;
    }
  }

  // ---- membership (peers) ----

  public HeartbeatResponse register(RegisterRequest r) throws IOException {
    return call(Endpoints.REGISTER, r, Map.of());
  }

  /** A heartbeat; null when the tracker does not know the peer (it must register again). */
  public HeartbeatResponse heartbeat(String peer, HeartbeatRequest h) throws IOException {
    try {
      return call(Endpoints.HEARTBEAT, h, Map.of(), peer);
    } catch (TrackerHttp.TrackerException e) {
      if (e.status() == 404) {
        return null;
      }
      throw e;
    }
  }

  /** A heartbeat sent without waiting (load generators): completes with the HTTP status. */
  public java.util.concurrent.CompletableFuture<Integer> heartbeatAsync(String peer, HeartbeatRequest h) {
    return http.postAsync(Endpoints.HEARTBEAT.path(peer), h);
  }

  public void leave(String peer) throws IOException {
    call(Endpoints.LEAVE, null, Map.of(), peer);
  }

  public List<PeerView> peers() throws IOException {
    return call(Endpoints.PEERS, null, Map.of());
  }

  /** Fragment keys the peer holds that are garbage (no index entry or store in flight wants them). */
  public List<byte[]> garbage(String peer, List<byte[]> keys) throws IOException {
    List<String> hex = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      hex.add(HexFormat.of().formatHex(k));
    }
    List<byte[]> out = new ArrayList<>();
    for (String g : call(Endpoints.INVENTORY, new Inventory(hex), Map.of(), peer).garbage()) {
      out.add(HexFormat.of().parseHex(g));
    }
    return out;
  }

  public RepairClaim.Jobs claimRepairs(String peer, int max) throws IOException {
    return call(Endpoints.REPAIR_CLAIM, new RepairClaim(max), Map.of(), peer);
  }

  /** Claims a batch of repair jobs: at most {@code max} of them, whose rebuilt pieces come to at most {@code maxBytes}. */
  public RepairClaim.Jobs claimRepairs(String peer, int max, long maxBytes) throws IOException {
    return call(Endpoints.REPAIR_CLAIM, new RepairClaim(max, maxBytes), Map.of(), peer);
  }

  public void reportRepairs(String peer, List<RepairOutcome> outcomes) throws IOException {
    call(Endpoints.REPAIRED, new RepairClaim.Report(outcomes), Map.of(), peer);
  }

  /** Tells the tracker that pieces of {@code holder} are bad or missing, so repair rebuilds them. */
  public int reportBad(String holder, String reporter, Map<FragmentKey, String> pieces) throws IOException {
    List<BadPieces.Piece> list = new ArrayList<>();
    pieces.forEach((k, why) -> list.add(new BadPieces.Piece(HexFormat.of().formatHex(k.toBytes()), why)));
    return call(Endpoints.BAD, new BadPieces(reporter, list), Map.of(), holder).changed();
  }

  public AssignedPage assigned(String peer, String after, int limit) throws IOException {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("limit", Integer.toString(limit));
    if (after != null) {
      q.put("after", after);
    }
    return call(Endpoints.ASSIGNED, null, q, peer);
  }

  // ---- compute hosts ----

  public ComputeState computeHeartbeat(String id, boolean up) throws IOException {
    return call(Endpoints.COMPUTE_HEARTBEAT, new ComputeState(id, up ? "UP" : "DOWN"), Map.of(), id);
  }

  /** A compute host's availability history over {@code window} (e.g. "14d"). */
  public HostHistory.Compute computeHistory(String id, String window) throws IOException {
    return call(Endpoints.COMPUTE_HISTORY, null, Map.of("window", window), id);
  }

  // ---- storing ----

  public PlacementAnswer place(PlacementQuery q) throws IOException {
    return call(Endpoints.PLACEMENT, q, Map.of());
  }

  public void reportBandwidth(BandwidthReport r) throws IOException {
    call(Endpoints.BANDWIDTH, r, Map.of());
  }

  /** The chunks the app holds coded at least as strongly as {@code atLeast} (any coding when null). */
  public Set<ChunkId> heldChunks(String app, String atLeast) throws IOException {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("app", app);
    if (atLeast != null) {
      q.put("atLeast", atLeast);
    }
    Set<ChunkId> out = new LinkedHashSet<>();
    for (String id : call(Endpoints.CHUNKS, null, q).ids()) {
      out.add(ChunkId.parse(id));
    }
    return out;
  }

  /**
   * Names chunks a store of {@code app} is about to send to {@code hosts} (peer ids); the answer says how
   * many the session holds pending and carries WRITE tickets for these chunks on those hosts. A list
   * longer than {@link PendingRequest#MAX_CHUNKS} goes in several calls (the answer: the last one's
   * count, every call's tickets).
   */
  public PendingRequest.Answer pending(String session, String app, List<ChunkId> chunks, List<String> hosts) throws IOException {
    int from = 0;
    List<TicketGrant> tickets = new ArrayList<>();
    while (true) {
      int to = Math.min(chunks.size(), from + PendingRequest.MAX_CHUNKS);
      List<String> hex = new ArrayList<>(to - from);
      for (ChunkId c : chunks.subList(from, to)) {
        hex.add(c.hex());
      }
      PendingRequest.Answer a = call(Endpoints.PENDING, new PendingRequest(app, hex, hosts), Map.of(), session);
      if (a.tickets() != null) {
        tickets.addAll(a.tickets());
      }
      from = to;
      if (from >= chunks.size()) {
        return new PendingRequest.Answer(a.session(), a.pending(), tickets);
      }
    }
  }

  /** Tickets by hand (admin credential): {@code op} READ or WRITE on {@code peer}'s pieces of {@code chunks}. */
  public List<TicketGrant> tickets(String op, String peer, List<ChunkId> chunks, Long ttlSeconds) throws IOException {
    List<String> hex = new ArrayList<>(chunks.size());
    for (ChunkId c : chunks) {
      hex.add(c.hex());
    }
    return call(Endpoints.TICKETS, new TicketRequest(op, peer, hex, ttlSeconds), Map.of()).tickets();
  }

  /** A store gives up: its pending chunks are no longer spared. */
  public void abandon(String session) throws IOException {
    call(Endpoints.ABANDON, null, Map.of(), session);
  }

  public CommitRequest.Answer commit(CommitRequest c) throws IOException {
    return call(Endpoints.COMMIT, c, Map.of());
  }

  /** The catalog record of a committed version, sealed by the tracker. */
  public CatalogRecordBlob record(String app, String node, long step) throws IOException {
    return call(Endpoints.RECORD, null, Map.of("app", app, "node", node, "step", Long.toString(step)));
  }

  /** The record's pieces are on the grid: the index keeps them with the version. */
  public RecordAttach.Answer attachRecord(RecordAttach a) throws IOException {
    return call(Endpoints.ATTACH_RECORD, a, Map.of());
  }

  /** The tracker group: its leader and members. */
  public ClusterView cluster() throws IOException {
    return call(Endpoints.CLUSTER, null, Map.of());
  }

  /** An online backup of the tracker's data directory into {@code to} on the tracker's host (admin). */
  public BackupRequest.Answer backup(String to) throws IOException {
    return call(Endpoints.BACKUP, new BackupRequest(to), Map.of());
  }

  // ---- reading and listing ----

  /** A version (latest when step <= 0) with each chunk's coding and holders. */
  public LocatedVersion locate(String app, String node, long step) throws IOException {
    return locate(app, node, step, -1);
  }

  /** Part {@code part} of a checkpoint set's version (latest when step <= 0); -1: a plain version. */
  public LocatedVersion locate(String app, String node, long step, int part) throws IOException {
    Map<String, String> q = new java.util.LinkedHashMap<>();
    q.put("app", app);
    q.put("node", node);
    q.put("step", step > 0 ? Long.toString(step) : "latest");
    if (part >= 0) {
      q.put("part", Integer.toString(part));
    }
    return call(Endpoints.MANIFEST, null, q);
  }

  /**
   * The latest version of app/node with each chunk's coding and base but not its holders (no READ tickets either): what a
   * store coding against it needs first. A tracker from before this parameter answers in full.
   */
  public LocatedVersion latestCodings(String app, String node) throws IOException {
    return latestCodings(app, node, -1);
  }

  /** As {@link #latestCodings(String, String)}, of part {@code part} of a checkpoint set's version (-1: a plain version). */
  public LocatedVersion latestCodings(String app, String node, int part) throws IOException {
    Map<String, String> q = new java.util.LinkedHashMap<>();
    q.put("app", app);
    q.put("node", node);
    q.put("step", "latest");
    if (part >= 0) {
      q.put("part", Integer.toString(part));
    }
    q.put("holders", "none");
    return call(Endpoints.MANIFEST, null, q);
  }

  /** The checkpoint sets of app/node still waiting for parts. */
  public List<SetProgress> pendingSets(String app, String node) throws IOException {
    return call(Endpoints.SETS, null, Map.of("app", app, "node", node));
  }

  public List<VersionRow> versions(String app, String node) throws IOException {
    return call(Endpoints.VERSIONS, null, Map.of("app", app, "node", node));
  }

  public void deleteVersion(String app, String node, long step) throws IOException {
    call(Endpoints.DELETE_VERSION, null, Map.of("app", app, "node", node, "step", Long.toString(step)));
  }

  public List<AppSummary> apps() throws IOException {
    return call(Endpoints.APPS, null, Map.of());
  }

  public FolderPolicy policy(String app) throws IOException {
    return call(Endpoints.POLICY, null, Map.of("app", app));
  }

  public FolderPolicy setPolicy(String app, String folder) throws IOException {
    return call(Endpoints.SET_POLICY, new FolderPolicy(app, folder), Map.of());
  }

  /** Issues a token (admin only); in a tracker group every member learns it. */
  public TokenRequest.Answer createToken(TokenRequest request) throws IOException {
    return call(Endpoints.TOKENS, request, Map.of());
  }

  /** The grid's donated and used space per history slot over {@code window} (e.g. "24h"). */
  public CapacitySeries capacity(String window) throws IOException {
    return call(Endpoints.CAPACITY, null, Map.of("window", window));
  }

  /** The tracker's Prometheus metrics (text): the last repair scan's counts, read without starting one. */
  public String metrics() throws IOException {
    return call(Endpoints.METRICS, null, Map.of());
  }

  public DurabilityView durability() throws IOException {
    return call(Endpoints.DURABILITY, null, Map.of());
  }

  /**
   * {@code e} with {@code body} (null: none; a POST without one sends {@code {}}), {@code query} and
   * {@code values} in its path template's parameters, answered as the table declares.
   */
  private <R, A> A call(Endpoint<R, A> e, R body, Map<String, String> query, String... values) throws IOException {
    Object json = body != null ? body : e.method().equals("POST") ? Map.of() : null;
    return http.call(e.method(), e.path(values), query, json, e.answer());
  }

}
