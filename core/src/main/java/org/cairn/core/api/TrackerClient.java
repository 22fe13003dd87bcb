package org.cairn.core.api;

import com.fasterxml.jackson.databind.JavaType;
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
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.security.GridToken;

/**
 * The one client of the tracker's HTTP API, shared by the client library, peers and the tray app:
 * every route as a typed call taking and returning the records of this package. Nothing else names
 * an {@code /api/v1} path. Errors are IOExceptions carrying the tracker's message
 * ({@link TrackerHttp.UnreachableException} when the call may be tried again).
 */
public final class TrackerClient {
  private static final String API = "/api/v1";

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
      return GridToken.of(http.get(API + "/dataplane", Map.of(), DataPlaneKey.class).key());
    } catch (TrackerHttp.TrackerException e) {
      if (e.status() == 404) {
        return null;
      }
      throw e;
    }
  }

  // ---- membership (peers) ----

  public HeartbeatResponse register(RegisterRequest r) throws IOException {
    return http.post(API + "/peers", r, HeartbeatResponse.class);
  }

  /** A heartbeat; null when the tracker does not know the peer (it must register again). */
  public HeartbeatResponse heartbeat(String peer, HeartbeatRequest h) throws IOException {
    try {
      return http.post(peerPath(peer, "heartbeat"), h, HeartbeatResponse.class);
    } catch (TrackerHttp.TrackerException e) {
      if (e.status() == 404) {
        return null;
      }
      throw e;
    }
  }

  /** A heartbeat sent without waiting (load generators): completes with the HTTP status. */
  public java.util.concurrent.CompletableFuture<Integer> heartbeatAsync(String peer, HeartbeatRequest h) {
    return http.postAsync(peerPath(peer, "heartbeat"), h);
  }

  public void leave(String peer) throws IOException {
    http.post(peerPath(peer, "leave"), Map.of(), PeerStateAnswer.class);
  }

  public List<PeerView> peers() throws IOException {
    return http.get(API + "/peers", Map.of(), list(PeerView.class));
  }

  /** Fragment keys the peer holds that are garbage (no index entry or store in flight wants them). */
  public List<byte[]> garbage(String peer, List<byte[]> keys) throws IOException {
    List<String> hex = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      hex.add(HexFormat.of().formatHex(k));
    }
    List<byte[]> out = new ArrayList<>();
    for (String g : http.post(peerPath(peer, "inventory"), new Inventory(hex), Inventory.Garbage.class).garbage()) {
      out.add(HexFormat.of().parseHex(g));
    }
    return out;
  }

  public RepairClaim.Jobs claimRepairs(String peer, int max) throws IOException {
    return http.post(peerPath(peer, "repair"), new RepairClaim(max), RepairClaim.Jobs.class);
  }

  public void reportRepairs(String peer, List<RepairOutcome> outcomes) throws IOException {
    http.post(peerPath(peer, "repaired"), new RepairClaim.Report(outcomes), RepairClaim.Accepted.class);
  }

  /** Tells the tracker that pieces of {@code holder} are bad or missing, so repair rebuilds them. */
  public int reportBad(String holder, String reporter, Map<FragmentKey, String> pieces) throws IOException {
    List<BadPieces.Piece> list = new ArrayList<>();
    pieces.forEach((k, why) -> list.add(new BadPieces.Piece(HexFormat.of().formatHex(k.toBytes()), why)));
    return http.post(peerPath(holder, "bad"), new BadPieces(reporter, list), BadPieces.Answer.class).changed();
  }

  public AssignedPage assigned(String peer, String after, int limit) throws IOException {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("limit", Integer.toString(limit));
    if (after != null) {
      q.put("after", after);
    }
    return http.get(peerPath(peer, "assigned"), q, AssignedPage.class);
  }

  // ---- compute hosts ----

  public ComputeState computeHeartbeat(String id, boolean up) throws IOException {
    return http.post(API + "/compute/" + segment(id) + "/heartbeat", new ComputeState(id, up ? "UP" : "DOWN"), ComputeState.class);
  }

  // ---- storing ----

  public PlacementAnswer place(PlacementQuery q) throws IOException {
    return http.post(API + "/placement", q, PlacementAnswer.class);
  }

  public void reportBandwidth(BandwidthReport r) throws IOException {
    http.post(API + "/bandwidth", r, Acknowledged.BandwidthNoted.class);
  }

  /** The chunks the app holds coded at least as strongly as {@code atLeast} (any coding when null). */
  public Set<ChunkId> heldChunks(String app, String atLeast) throws IOException {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("app", app);
    if (atLeast != null) {
      q.put("atLeast", atLeast);
    }
    Set<ChunkId> out = new LinkedHashSet<>();
    for (String id : http.get(API + "/chunks", q, HeldChunks.class).ids()) {
      out.add(ChunkId.parse(id));
    }
    return out;
  }

  /**
   * Names chunks a store is about to send to {@code hosts} (peer ids); the answer says how many the
   * session holds pending and carries WRITE tickets for these chunks on those hosts.
   */
  public PendingRequest.Answer pending(String session, List<ChunkId> chunks, List<String> hosts) throws IOException {
    List<String> hex = new ArrayList<>(chunks.size());
    for (ChunkId c : chunks) {
      hex.add(c.hex());
    }
    return http.post(API + "/stores/" + segment(session) + "/pending", new PendingRequest(hex, hosts), PendingRequest.Answer.class);
  }

  /** Tickets by hand (admin credential): {@code op} READ or WRITE on {@code peer}'s pieces of {@code chunks}. */
  public List<TicketGrant> tickets(String op, String peer, List<ChunkId> chunks, Long ttlSeconds) throws IOException {
    List<String> hex = new ArrayList<>(chunks.size());
    for (ChunkId c : chunks) {
      hex.add(c.hex());
    }
    return http.post(API + "/tickets", new TicketRequest(op, peer, hex, ttlSeconds), TicketRequest.Answer.class).tickets();
  }

  /** A store gives up: its pending chunks are no longer spared. */
  public void abandon(String session) throws IOException {
    http.delete(API + "/stores/" + segment(session), Map.of(), Acknowledged.SessionClosed.class);
  }

  public CommitRequest.Answer commit(CommitRequest c) throws IOException {
    return http.post(API + "/versions", c, CommitRequest.Answer.class);
  }

  /** The catalog record of a committed version, sealed by the tracker (issue #21). */
  public CatalogRecordBlob record(String app, String node, long step) throws IOException {
    return http.get(API + "/records", Map.of("app", app, "node", node, "step", Long.toString(step)), CatalogRecordBlob.class);
  }

  /** The record's pieces are on the grid: the index keeps them with the version. */
  public RecordAttach.Answer attachRecord(RecordAttach a) throws IOException {
    return http.post(API + "/records", a, RecordAttach.Answer.class);
  }

  /** The tracker group: its leader and members. */
  public ClusterView cluster() throws IOException {
    return http.get(API + "/cluster", Map.of(), ClusterView.class);
  }

  /** An online backup of the tracker's data directory into {@code to} on the tracker's host (admin). */
  public BackupRequest.Answer backup(String to) throws IOException {
    return http.post(API + "/backup", new BackupRequest(to), BackupRequest.Answer.class);
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
    return http.get(API + "/manifest", q, LocatedVersion.class);
  }

  /**
   * The latest version of app/node with each chunk's coding and base but not its holders (no READ tickets either): what a
   * store coding against it needs first. A tracker from before this parameter answers in full.
   */
  public LocatedVersion latestCodings(String app, String node) throws IOException {
    Map<String, String> q = new java.util.LinkedHashMap<>();
    q.put("app", app);
    q.put("node", node);
    q.put("step", "latest");
    q.put("holders", "none");
    return http.get(API + "/manifest", q, LocatedVersion.class);
  }

  /** The checkpoint sets of app/node still waiting for parts. */
  public List<SetProgress> pendingSets(String app, String node) throws IOException {
    return http.get(API + "/sets", Map.of("app", app, "node", node), list(SetProgress.class));
  }

  public List<VersionRow> versions(String app, String node) throws IOException {
    return http.get(API + "/versions", Map.of("app", app, "node", node), list(VersionRow.class));
  }

  public void deleteVersion(String app, String node, long step) throws IOException {
    http.delete(API + "/versions", Map.of("app", app, "node", node, "step", Long.toString(step)), Acknowledged.Deleted.class);
  }

  public List<AppSummary> apps() throws IOException {
    return http.get(API + "/apps", Map.of(), list(AppSummary.class));
  }

  public FolderPolicy policy(String app) throws IOException {
    return http.get(API + "/policy", Map.of("app", app), FolderPolicy.class);
  }

  public FolderPolicy setPolicy(String app, String folder) throws IOException {
    return http.post(API + "/policy", new FolderPolicy(app, folder), FolderPolicy.class);
  }

  /** Issues a token (admin only); in a tracker group every member learns it. */
  public TokenRequest.Answer createToken(TokenRequest request) throws IOException {
    return http.post(API + "/tokens", request, TokenRequest.Answer.class);
  }

  /** The grid's donated and used space per history slot over {@code window} (e.g. "24h"). */
  public CapacitySeries capacity(String window) throws IOException {
    return http.get(API + "/capacity", Map.of("window", window), CapacitySeries.class);
  }

  public DurabilityView durability() throws IOException {
    return http.get(API + "/durability", Map.of(), DurabilityView.class);
  }

  private static String peerPath(String peer, String action) {
    return API + "/peers/" + segment(peer) + "/" + action;
  }

  /** A path segment: ids are names without '/', checked here so no caller can aim a call elsewhere. */
  private static String segment(String s) {
    if (s == null || s.isEmpty() || s.contains("/") || s.contains("?") || s.contains("#") || s.contains("%")) {
      throw new IllegalArgumentException("not a valid id: '" + s + "'");
    }
    return s;
  }

  private static JavaType list(Class<?> element) {
    return TrackerHttp.JSON.getTypeFactory().constructCollectionType(List.class, element);
  }

  /** The answer to {@code leave}. */
  private record PeerStateAnswer(String id, String state) {}
}
