package org.cairn.tracker.api;

import static org.cairn.tracker.api.Requests.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.cairn.core.api.ApiError;
import org.cairn.core.api.BackupRequest;
import org.cairn.core.api.ClusterView;
import org.cairn.core.api.NotLeaderError;
import org.cairn.core.api.PeerView;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.tracker.auth.Access;
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
 * Routes API requests to the tracker's services; independent of Netty so it can be tested without
 * a network. Every route needs {@code Authorization: Bearer <token>} (the status page's read-only
 * GETs may be opened to all); errors are {@link org.cairn.core.api.ApiError} JSON. The route table is
 * {@link #route}; the routes themselves are {@link PeerRoutes} (donors), {@link HistoryRoutes}
 * (availability history), {@link DataRoutes} (stores and fetches), {@link VersionRoutes} (versions and
 * their records) and {@link AdminRoutes} (the tracker and the grid as a whole).
 */
public final class TrackerApi implements RequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerApi.class);
  /** Who reads the public status page (read-only GETs, no token): no app at all, or every app when the operator opts in. */
  private static final Principal PUBLIC_SUMMARY = new Principal("public", Role.CLIENT, List.of(), true, null);
  private static final Principal PUBLIC_WITH_APPS = new Principal("public", Role.CLIENT, null, true, null);

  /** What {@code POST /api/v1/backup} runs: a backup of the tracker's data directory to a new directory. */
  public interface Backup {
    BackupRequest.Answer to(java.nio.file.Path target) throws IOException;
  }

  private final Credentials credentials;
  private final Metrics metrics;
  private final PeerRoutes peers;
  private final HistoryRoutes history;
  private final DataRoutes data;
  private final VersionRoutes versions;
  private final AdminRoutes admin;
  private volatile boolean statusPagePublic;
  private volatile Principal publicPage = PUBLIC_SUMMARY;

  public TrackerApi(Credentials credentials, Membership membership, History history, PlacementService placement, Metrics metrics,
      Clock clock, Duration heartbeatInterval, Crls crls, Catalog catalog, RepairService repair, EventLog events) {
    this.credentials = credentials;
    this.metrics = metrics;
    Grants grants = new Grants(credentials, membership);
    this.history = new HistoryRoutes(membership, history, crls, heartbeatInterval);
    this.peers = new PeerRoutes(credentials, membership, catalog, repair, metrics, clock, heartbeatInterval, grants, this.history);
    this.data = new DataRoutes(membership, placement, catalog, metrics, grants);
    this.versions = new VersionRoutes(catalog, repair, metrics);
    this.admin = new AdminRoutes(credentials, membership, catalog, repair, events, clock, peers::certifier);
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
   * {@code --status-page public}: the status page's read-only GETs work without the token, with no
   * app names (apps, versions, the latest versions in durability and app events are left out) unless
   * {@code apps} ({@code --status-page public-apps}).
   */
  public void setStatusPagePublic(boolean open, boolean apps) {
    this.statusPagePublic = open;
    this.publicPage = apps ? PUBLIC_WITH_APPS : PUBLIC_SUMMARY;
  }

  /** Handles one request. {@code query} holds decoded query parameters (first value of each). */
  public Response handle(String method, String path, Map<String, String> query, byte[] body, String authorization) {
    long start = System.nanoTime();
    String route = "unmatched";
    Response response;
    try {
      if (method.equals("GET") && StatusAssets.isPage(path)) {
        route = "GET /ui";
        response = StatusAssets.serve(path);
        metrics.request(route, response.status(), System.nanoTime() - start);
        return response;
      }
      boolean open = statusPagePublic && method.equals("GET") && StatusAssets.readOnly(path);
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
    } catch (org.cairn.tracker.auth.Refused e) {
      response = error(e.status(), e.getMessage());
    } catch (JsonProcessingException e) {
      response = error(400, "request body is not valid JSON for this call: " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      response = error(400, e.getMessage());
    } catch (NotEnoughHostsException e) {
      // a shortage that may pass (hosts BUSY or FULL now) says when to ask again: a store waits for it
      response = Requests.json(409, new ApiError(409, e.getMessage(), e.passing() ? PLACEMENT_RETRY_MS : null));
    } catch (NotCommittedException e) {
      response = notLeader(e.getMessage(), e.leader());
    } catch (IOException | RuntimeException e) {
      LOG.error("{} {} failed", method, path, e);
      response = error(500, "internal error: " + e.getMessage());
    }
    metrics.request(route, response.status(), System.nanoTime() - start);
    return response;
  }

  /** The route's name for metrics and access rules: "METHOD /resource[/{id}][/action]". */
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
    return switch (resource) {
      case "peers" -> peers.route(method, id, action, query, body, who);
      case "compute" -> history.compute(method, id, action, query, body);
      case "availability" -> history.availability(method, query);
      case "bandwidth" -> data.bandwidth(method, body);
      case "placement" -> data.placement(method, body);
      case "chunks" -> data.chunks(method, id, query, body, who);
      case "stores" -> data.stores(method, id, action, body, who);
      case "manifest" -> data.manifest(method, query, who);
      case "tickets" -> data.tickets(method, body, who);
      case "versions" -> versions.versions(method, query, body, who);
      case "records" -> versions.records(method, query, body, who);
      case "sets" -> versions.sets(method, query, who);
      case "policy" -> versions.policy(method, query, body, who);
      case "health" -> admin.health(method);
      case "dataplane" -> admin.dataPlane(method);
      case "cluster" -> admin.cluster(method);
      case "backup" -> admin.backup(method, body);
      case "tokens" -> admin.tokens(method, body);
      case "capacity" -> admin.capacity(method, query);
      case "durability" -> admin.durability(method, who);
      case "events" -> admin.events(method, query, who);
      case "apps" -> admin.apps(method, who);
      default -> throw new ApiException(404, "no such endpoint: /api/v1/" + resource);
    };
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

  static Response error(int status, String message) {
    return Requests.error(status, message);
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
