package org.cairn.core.api;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.catalog.AssignedPage;
import org.cairn.core.api.catalog.BackupRequest;
import org.cairn.core.api.catalog.CatalogRecordBlob;
import org.cairn.core.api.catalog.ChunkLookup;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.catalog.FolderPolicy;
import org.cairn.core.api.catalog.HeldChunks;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.api.catalog.PendingRequest;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;
import org.cairn.core.api.catalog.RecordAttach;
import org.cairn.core.api.catalog.SetProgress;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.api.member.BandwidthReport;
import org.cairn.core.api.member.ComputeState;
import org.cairn.core.api.member.DataPlaneKey;
import org.cairn.core.api.member.HeartbeatRequest;
import org.cairn.core.api.member.HeartbeatResponse;
import org.cairn.core.api.member.HostHistory;
import org.cairn.core.api.member.Inventory;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.api.member.TicketRequest;
import org.cairn.core.api.repair.BadPieces;
import org.cairn.core.api.repair.RepairClaim;
import org.cairn.core.api.status.AppSummary;
import org.cairn.core.api.status.AvailabilityView;
import org.cairn.core.api.status.CapacitySeries;
import org.cairn.core.api.status.ClusterView;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.api.status.TrackerHealth;

/**
 * Every call the tracker serves, with who may make it ({@link Endpoint}): the one table the tracker
 * routes and authorizes by and {@link TrackerClient} builds its calls from. An endpoint missing here
 * is not served; one here without a handler fails the tracker's tests.
 */
public final class Endpoints {
  private static final List<Endpoint<?, ?>> ALL_ = new ArrayList<>();
  private static final String API = "/api/v1";

  // ---- the status page (its files, then the data it reads: PUBLIC_PAGE) ----
  public static final Endpoint<Void, String> PAGE = add(get("/", String.class).by(Caller.ANONYMOUS));
  public static final Endpoint<Void, String> PAGE_INDEX = add(get("/index.html", String.class).by(Caller.ANONYMOUS));
  public static final Endpoint<Void, String> PAGE_ASSET = add(get("/ui/{file}", String.class).by(Caller.ANONYMOUS));
  public static final Endpoint<Void, String> METRICS = add(get("/metrics", String.class).by(Caller.CLIENT));

  // ---- the tracker itself ----
  public static final Endpoint<Void, TrackerHealth> HEALTH = add(get(API + "/health", TrackerHealth.class).by(Caller.ANY, Caller.PUBLIC_PAGE));
  public static final Endpoint<Void, ClusterView> CLUSTER = add(get(API + "/cluster", ClusterView.class).by(Caller.ANY));
  public static final Endpoint<Void, DataPlaneKey> DATAPLANE = add(get(API + "/dataplane", DataPlaneKey.class).by(Caller.CLIENT));
  public static final Endpoint<BackupRequest, BackupRequest.Answer> BACKUP =
      add(post(API + "/backup", BackupRequest.class, BackupRequest.Answer.class).by(Caller.ADMIN));
  public static final Endpoint<TokenRequest, TokenRequest.Answer> TOKENS =
      add(post(API + "/tokens", TokenRequest.class, TokenRequest.Answer.class).by(Caller.ADMIN));
  public static final Endpoint<Void, CapacitySeries> CAPACITY =
      add(get(API + "/capacity", CapacitySeries.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  public static final Endpoint<Void, DurabilityView> DURABILITY =
      add(get(API + "/durability", DurabilityView.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  /** The answer: {@code {"events":[{seq,time,kind,subject,message,app}...]}}. */
  public static final Endpoint<Void, JsonNode> EVENTS = add(get(API + "/events", JsonNode.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  public static final Endpoint<Void, List<AppSummary>> APPS = add(getList(API + "/apps", AppSummary.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));

  // ---- peers ----
  public static final Endpoint<Void, List<PeerView>> PEERS = add(getList(API + "/peers", PeerView.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  /** A donor's enrollment token registers a new peer; a peer's own credential registers only itself (its body's id). */
  public static final Endpoint<RegisterRequest, HeartbeatResponse> REGISTER = add(post(API + "/peers", RegisterRequest.class,
      HeartbeatResponse.class).by(Caller.DONOR, Caller.PEER_SELF).peer((p, q, b) -> b == null ? null : b.id()));
  public static final Endpoint<Void, PeerView> PEER = add(get(API + "/peers/{id}", PeerView.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  public static final Endpoint<Void, HostHistory.Storage> PEER_HISTORY =
      add(get(API + "/peers/{id}/history", HostHistory.Storage.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  public static final Endpoint<HeartbeatRequest, HeartbeatResponse> HEARTBEAT =
      add(post(API + "/peers/{id}/heartbeat", HeartbeatRequest.class, HeartbeatResponse.class).by(Caller.PEER_SELF));
  public static final Endpoint<Void, Acknowledged.PeerLeft> LEAVE =
      add(post(API + "/peers/{id}/leave", Void.class, Acknowledged.PeerLeft.class).by(Caller.PEER_SELF));
  public static final Endpoint<Inventory, Inventory.Garbage> INVENTORY =
      add(post(API + "/peers/{id}/inventory", Inventory.class, Inventory.Garbage.class).by(Caller.PEER_SELF).maxBody(16 << 20));
  public static final Endpoint<RepairClaim, RepairClaim.Jobs> REPAIR_CLAIM =
      add(post(API + "/peers/{id}/repair", RepairClaim.class, RepairClaim.Jobs.class).by(Caller.PEER_SELF).bodyOptional());
  public static final Endpoint<RepairClaim.Report, RepairClaim.Accepted> REPAIRED =
      add(post(API + "/peers/{id}/repaired", RepairClaim.Report.class, RepairClaim.Accepted.class).by(Caller.PEER_SELF).maxBody(4 << 20));
  public static final Endpoint<Void, AssignedPage> ASSIGNED = add(get(API + "/peers/{id}/assigned", AssignedPage.class).by(Caller.PEER_SELF));
  /** The holder about its own pieces; a client only about chunks of versions of its apps. */
  public static final Endpoint<BadPieces, BadPieces.Answer> BAD = add(post(API + "/peers/{id}/bad", BadPieces.class, BadPieces.Answer.class)
      .by(Caller.PEER_SELF, Caller.CLIENT).chunks(Endpoints::badChunks).maxBody(16 << 20));

  // ---- compute hosts and availability ----
  /** The answer: compute host id to its state. */
  public static final Endpoint<Void, JsonNode> COMPUTE = add(get(API + "/compute", JsonNode.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  public static final Endpoint<ComputeState, ComputeState> COMPUTE_HEARTBEAT =
      add(post(API + "/compute/{id}/heartbeat", ComputeState.class, ComputeState.class).by(Caller.CLIENT).bodyOptional());
  public static final Endpoint<Void, HostHistory.Compute> COMPUTE_HISTORY =
      add(get(API + "/compute/{id}/history", HostHistory.Compute.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));
  public static final Endpoint<Void, AvailabilityView> AVAILABILITY =
      add(get(API + "/availability", AvailabilityView.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE));

  // ---- storing and fetching ----
  public static final Endpoint<BandwidthReport, Acknowledged.BandwidthNoted> BANDWIDTH =
      add(post(API + "/bandwidth", BandwidthReport.class, Acknowledged.BandwidthNoted.class).by(Caller.CLIENT));
  public static final Endpoint<PlacementQuery, PlacementAnswer> PLACEMENT =
      add(post(API + "/placement", PlacementQuery.class, PlacementAnswer.class).by(Caller.CLIENT).writes());
  public static final Endpoint<Void, HeldChunks> CHUNKS = add(get(API + "/chunks", HeldChunks.class).by(Caller.CLIENT).appInQuery());
  public static final Endpoint<ChunkLookup, ChunkLookup.Answer> CHUNK_LOOKUP = add(post(API + "/chunks/lookup", ChunkLookup.class,
      ChunkLookup.Answer.class).by(Caller.CLIENT).app((p, q, b) -> b == null ? null : b.app()).maxBody(8 << 20));
  public static final Endpoint<PendingRequest, PendingRequest.Answer> PENDING = add(post(API + "/stores/{session}/pending",
      PendingRequest.class, PendingRequest.Answer.class).by(Caller.CLIENT).writes().app((p, q, b) -> b == null ? null : b.app())
      .maxBody(2 << 20));
  public static final Endpoint<Void, Acknowledged.SessionClosed> ABANDON =
      add(of("DELETE", API + "/stores/{session}", Void.class, Acknowledged.SessionClosed.class).by(Caller.CLIENT).writes());
  public static final Endpoint<Void, LocatedVersion> MANIFEST = add(get(API + "/manifest", LocatedVersion.class).by(Caller.CLIENT).appInQuery());
  public static final Endpoint<TicketRequest, TicketRequest.Answer> TICKETS =
      add(post(API + "/tickets", TicketRequest.class, TicketRequest.Answer.class).by(Caller.ADMIN));

  // ---- versions, their records, sets and policies ----
  public static final Endpoint<Void, List<VersionRow>> VERSIONS =
      add(getList(API + "/versions", VersionRow.class).by(Caller.CLIENT, Caller.PUBLIC_PAGE).appInQuery());
  /** A commit: the one call with a large body (the manifest and the new chunks' holders). */
  public static final Endpoint<CommitRequest, CommitRequest.Answer> COMMIT = add(post(API + "/versions", CommitRequest.class,
      CommitRequest.Answer.class).by(Caller.CLIENT).writes().app((p, q, b) -> b == null || b.manifest() == null ? null : b.manifest().app())
      .maxBody(64 << 20));
  public static final Endpoint<Void, Acknowledged.Deleted> DELETE_VERSION =
      add(of("DELETE", API + "/versions", Void.class, Acknowledged.Deleted.class).by(Caller.CLIENT).writes().appInQuery());
  public static final Endpoint<Void, CatalogRecordBlob> RECORD =
      add(get(API + "/records", CatalogRecordBlob.class).by(Caller.CLIENT).writes().appInQuery());
  public static final Endpoint<RecordAttach, RecordAttach.Answer> ATTACH_RECORD = add(post(API + "/records", RecordAttach.class,
      RecordAttach.Answer.class).by(Caller.CLIENT).writes().app((p, q, b) -> b == null ? null : b.app()));
  public static final Endpoint<Void, List<SetProgress>> SETS = add(getList(API + "/sets", SetProgress.class).by(Caller.CLIENT).appInQuery());
  public static final Endpoint<Void, FolderPolicy> POLICY = add(get(API + "/policy", FolderPolicy.class).by(Caller.CLIENT).appInQuery());
  public static final Endpoint<FolderPolicy, FolderPolicy> SET_POLICY = add(post(API + "/policy", FolderPolicy.class, FolderPolicy.class)
      .by(Caller.CLIENT).writes().app((p, q, b) -> b == null ? null : b.app()));

  /** Every endpoint, in the order declared. */
  public static final List<Endpoint<?, ?>> ALL = List.copyOf(ALL_);

  private Endpoints() {}

  private static <R, A> Endpoint<R, A> add(Endpoint<R, A> e) {
    for (Endpoint<?, ?> other : ALL_) {
      if (other.equals(e)) {
        throw new IllegalStateException("endpoint declared twice: " + e);
      }
    }
    ALL_.add(e);
    return e;
  }

  private static <A> Endpoint<Void, A> get(String template, Class<A> answer) {
    return Endpoint.of("GET", template, Void.class, type(answer));
  }

  private static <E> Endpoint<Void, List<E>> getList(String template, Class<E> element) {
    return Endpoint.of("GET", template, Void.class, TrackerHttp.JSON.getTypeFactory().constructCollectionType(List.class, element));
  }

  private static <R, A> Endpoint<R, A> post(String template, Class<R> request, Class<A> answer) {
    return Endpoint.of("POST", template, request, type(answer));
  }

  private static <R, A> Endpoint<R, A> of(String method, String template, Class<R> request, Class<A> answer) {
    return Endpoint.of(method, template, request, type(answer));
  }

  private static JavaType type(Class<?> c) {
    return TrackerHttp.JSON.getTypeFactory().constructType(c);
  }

  /** The chunk ids (hex) of a bad-pieces report's fragment keys (a key starts with its chunk's 64 hex digits). */
  private static List<String> badChunks(java.util.Map<String, String> path, java.util.Map<String, String> query, BadPieces b) {
    List<String> out = new ArrayList<>();
    if (b != null && b.fragments() != null) {
      for (BadPieces.Piece f : b.fragments()) {
        String key = f == null ? null : f.key();
        out.add(key == null || key.length() < 64 ? key : key.substring(0, 64));
      }
    }
    return out;
  }
}
