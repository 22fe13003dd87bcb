package org.cairn.tracker.api;

import static org.cairn.tracker.api.call.Requests.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.cairn.core.api.ApiError;
import org.cairn.core.api.Caller;
import org.cairn.core.api.Endpoint;
import org.cairn.core.api.Endpoints;
import org.cairn.core.api.NotLeaderError;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.ClusterView;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.tracker.api.call.ApiException;
import org.cairn.tracker.api.call.Bindings;
import org.cairn.tracker.api.call.Call;
import org.cairn.tracker.api.call.Metrics;
import org.cairn.tracker.api.call.Requests;
import org.cairn.tracker.api.call.Response;
import org.cairn.tracker.api.route.AdminRoutes;
import org.cairn.tracker.api.route.Backup;
import org.cairn.tracker.api.route.DataRoutes;
import org.cairn.tracker.api.route.Grants;
import org.cairn.tracker.api.route.HistoryRoutes;
import org.cairn.tracker.api.route.PeerRoutes;
import org.cairn.tracker.api.route.StatusAssets;
import org.cairn.tracker.api.route.VersionRoutes;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.catalog.CatalogRecords;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.CapacityHistory;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.store.NotCommittedException;
import org.cairn.tracker.tls.PeerCertifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes API requests to the tracker's services by the endpoint table ({@link Endpoints}); independent
 * of Netty so it can be tested without a network. A request is matched to its endpoint (unknown: 404,
 * wrong method: 405), its caller authenticated (401) and authorized by the endpoint's declared rule
 * ({@link Gate}: 403) before its handler runs; errors are {@link ApiError} JSON. The handlers are
 * {@link PeerRoutes} (donors), {@link HistoryRoutes} (availability history), {@link DataRoutes}
 * (stores and fetches), {@link VersionRoutes} (versions and their records), {@link AdminRoutes} (the
 * tracker and the grid as a whole) and {@link StatusAssets} (the status page).
 */
public final class TrackerApi implements RequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerApi.class);
  /** Who reads the public status page (read-only GETs, no token): no app at all, or every app when the operator opts in. */
  private static final Principal PUBLIC_SUMMARY = new Principal("public", Role.CLIENT, List.of(), true, null);
  private static final Principal PUBLIC_WITH_APPS = new Principal("public", Role.CLIENT, null, true, null);

  private final Credentials credentials;
  private final Metrics metrics;
  private final Gate gate;
  private final Bindings bindings = new Bindings();
  private final PeerRoutes peers;
  private final VersionRoutes versions;
  private final AdminRoutes admin;
  private volatile boolean statusPagePublic;
  private volatile Principal publicPage = PUBLIC_SUMMARY;

  public TrackerApi(Credentials credentials, Membership membership, History history, PlacementService placement, Metrics metrics,
      Clock clock, Duration heartbeatInterval, Crls crls, Catalog catalog, RepairService repair, EventLog events) {
    this.credentials = credentials;
    this.metrics = metrics;
    this.gate = new Gate(catalog);
    Grants grants = new Grants(credentials, membership);
    HistoryRoutes historyRoutes = new HistoryRoutes(membership, history, crls, heartbeatInterval);
    this.peers = new PeerRoutes(credentials, membership, catalog, repair, metrics, clock, heartbeatInterval, grants);
    this.versions = new VersionRoutes(catalog, repair, metrics);
    this.admin = new AdminRoutes(credentials, membership, catalog, repair, events, clock, peers::certifier);
    peers.bind(bindings);
    historyRoutes.bind(bindings);
    new DataRoutes(membership, placement, catalog, metrics, grants).bind(bindings);
    versions.bind(bindings);
    admin.bind(bindings);
    StatusAssets.bind(bindings);
    bindings.on(Endpoints.METRICS, c -> new Response(200, Response.TEXT, metrics.render().getBytes(StandardCharsets.UTF_8)));
  }

  /** A tracker with TLS: peers' data-plane keys are certified at registration. */
  public void setPeerCertifier(PeerCertifier certifier) {
    peers.setCertifier(certifier);
  }

  public void setBackup(Backup backup) {
    admin.setBackup(backup);
  }

  /** This tracker as a group of one: its id and the address it serves on. */
  public void setSelf(String id, String address) {
    ClusterView self = new ClusterView(id, List.of(new ClusterView.Member(id, address, "leader")));
    admin.setCluster(() -> self);
  }

  /** A member of a replicated group: {@code GET /api/v1/cluster} answers what the group says now. */
  public void setCluster(Supplier<ClusterView> view) {
    admin.setCluster(view);
  }

  /** Where {@code GET /api/v1/records} seals versions' catalog records. */
  public void setRecords(CatalogRecords records) {
    versions.setRecords(records);
  }

  /** Where {@code GET /api/v1/capacity} reads the grid's space over time. */
  public void setCapacity(CapacityHistory capacity) {
    admin.setCapacity(capacity);
  }

  /**
   * {@code --status-page public}: the status page's read-only GETs ({@link Caller#PUBLIC_PAGE}) work
   * without the token, with no app names (apps, versions, the latest versions in durability and app
   * events are left out) unless {@code apps} ({@code --status-page public-apps}).
   */
  public void setStatusPagePublic(boolean open, boolean apps) {
    this.statusPagePublic = open;
    this.publicPage = apps ? PUBLIC_WITH_APPS : PUBLIC_SUMMARY;
  }

  /** The endpoints this API serves (each with its handler): exactly {@link Endpoints#ALL}. */
  public Set<Endpoint<?, ?>> served() {
    return bindings.all().keySet();
  }

  /** Handles one request. {@code query} holds decoded query parameters (first value of each). */
  @Override
  public Response handle(String method, String path, Map<String, String> query, byte[] body, String authorization) {
    long start = System.nanoTime();
    String route = "unmatched";
    Response response;
    try {
      Match m = match(method, path);
      if (m.endpoint() == null) {
        if (needsCredential(path) && credentials.authenticate(authorization).isEmpty()) {
          throw new ApiException(401, credentials.refusal(authorization));
        }
        throw new ApiException(m.status(), m.message());
      }
      route = m.endpoint().name();
      response = serve(m.endpoint(), m.params(), query, body, authorization);
    } catch (ApiException e) {
      response = error(e.status(), e.getMessage());
    } catch (org.cairn.tracker.auth.Refused e) {
      response = error(e.status(), e.getMessage());
    } catch (JsonProcessingException e) {
      response = error(400, "request body is not valid JSON for this call: " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      response = error(400, e.getMessage());
    } catch (NotEnoughHostsException e) {
      // a shortage that may pass (hosts BUSY or FULL now) says when to ask again: a store waits for it
      response = json(409, new ApiError(409, e.getMessage(), e.passing() ? PLACEMENT_RETRY_MS : null));
    } catch (NotCommittedException e) {
      response = notLeader(e.getMessage(), e.leader());
    } catch (IOException | RuntimeException e) {
      LOG.error("{} {} failed", method, route, e);
      response = error(500, "internal error: " + e.getMessage());
    }
    metrics.request(route, response.status(), System.nanoTime() - start);
    return response;
  }

  /** Authenticates, authorizes, decodes and runs {@code e}'s handler. */
  private <R> Response serve(Endpoint<R, ?> e, Map<String, String> params, Map<String, String> query, byte[] body,
      String authorization) throws ApiException, IOException, NotEnoughHostsException {
    Principal who = caller(e, authorization);
    R request = Requests.decode(e, body);
    String refused = gate.scopeRefusal(who, e, params, query, request);
    if (refused != null) {
      throw new ApiException(403, refused);
    }
    Object answer = bindings.handler(e).handle(new Call<>(who, params, query, request));
    return answer instanceof Response r ? r : json(200, answer);
  }

  /** Who makes this call, if the endpoint lets them: the public page's principal, or the credential's (401, 403 otherwise). */
  private Principal caller(Endpoint<?, ?> e, String authorization) throws ApiException {
    if (e.callers().contains(Caller.ANONYMOUS)) {
      return PUBLIC_SUMMARY;
    }
    Principal who = credentials.authenticate(authorization).orElse(null);
    if (who == null) {
      if (statusPagePublic && e.callers().contains(Caller.PUBLIC_PAGE)) {
        return publicPage;
      }
      throw new ApiException(401, credentials.refusal(authorization));
    }
    String refused = Gate.roleRefusal(who, e);
    if (refused != null) {
      throw new ApiException(403, refused);
    }
    return who;
  }

  /**
   * Heartbeats are answered on the network thread: the membership's update is in memory (its store write waits for the
   * next flush, {@code TrackerStore#putSoon}) and a peer's soft-write report goes to a thread of its own
   * ({@code PeerRoutes}); the hand-off to a handler thread and back cost more than the heartbeat.
   */
  @Override
  public boolean inline(String method, String path) {
    return Endpoints.HEARTBEAT.method().equals(method) && Endpoints.HEARTBEAT.match(path) != null;
  }

  @Override
  public Limit limit(String method, String path, String authorization) {
    Endpoint<?, ?> e = match(method, path).endpoint();
    if (e == null || e.callers().contains(Caller.ANONYMOUS)) {
      return RequestHandler.super.limit(method, path, authorization);
    }
    if (credentials.authenticate(authorization).isEmpty()) {
      return new Limit(HEAD_ONLY_BODY, 401, credentials.refusal(authorization));
    }
    return new Limit(e.maxBody(), 413, "request body is larger than " + e.name() + " takes (" + e.maxBody() + " bytes)");
  }

  /** The endpoint serving {@code method} on {@code path} and its path parameters; else the 404 or 405 to answer. */
  private record Match(Endpoint<?, ?> endpoint, Map<String, String> params, int status, String message) {}

  private Match match(String method, String path) {
    List<String> allowed = new ArrayList<>();
    for (Endpoint<?, ?> e : bindings.all().keySet()) {
      Map<String, String> params = e.match(path);
      if (params == null) {
        continue;
      }
      if (e.method().equals(method)) {
        return new Match(e, params, 200, null);
      }
      allowed.add(e.method());
    }
    if (!allowed.isEmpty()) {
      return new Match(null, null, 405, "method " + method + " not allowed here; use " + String.join(" or ", allowed));
    }
    String shown = path.length() > 120 ? path.substring(0, 120) + "..." : path;
    return new Match(null, null, 404, "no such endpoint: " + shown + (path.startsWith("/api/v1/") ? "" : "; the API is under /api/v1"));
  }

  /** Paths whose existence only a caller with a credential learns (an unknown one is a 401 without one). */
  private static boolean needsCredential(String path) {
    return path.startsWith("/api/") || path.startsWith("/metrics");
  }

  /**
   * 503 from a member of a tracker group that cannot serve a call because it does not lead: the body
   * names the leader when known ({@code "leader"}, empty while an election runs), so clients try
   * another member.
   */
  public static Response notLeader(String message, String leader) {
    return json(503, new NotLeaderError(503, message, leader == null ? "" : leader));
  }

  /** When a placement refused for hosts that are BUSY or FULL now may be asked again. */
  static final long PLACEMENT_RETRY_MS = 2000;

  private static Response error(int status, String message) {
    return Response.error(status, message);
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
