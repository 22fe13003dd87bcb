package org.cairn.tracker.api;

import static org.cairn.tracker.api.Requests.json;
import static org.cairn.tracker.api.Requests.parseLong;
import static org.cairn.tracker.api.Requests.read;
import static org.cairn.tracker.api.Requests.requireMethod;
import static org.cairn.tracker.api.Requests.required;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.cairn.core.api.BackupRequest;
import org.cairn.core.api.ClusterView;
import org.cairn.core.api.DataPlaneKey;
import org.cairn.core.api.TokenRequest;
import org.cairn.core.api.TrackerHealth;
import org.cairn.core.config.Durations;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.auth.TokenStore;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.history.CapacityHistory;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.repair.RepairService;
import org.cairn.tracker.tls.PeerCertifier;
import org.cairn.tracker.tls.TrackerCa;

/**
 * The tracker about itself and the grid as a whole: health, the data-plane key, its group, backups,
 * tokens, and what the status page shows (capacity, durability, events, apps).
 */
final class AdminRoutes {
  /** What {@code GET /api/v1/events} answers: the events after the one asked for, at most 500. */
  record EventsPage(List<EventLog.Event> events) {}

  private final Credentials credentials;
  private final Membership membership;
  private final Catalog catalog;
  private final RepairService repair;
  private final EventLog events;
  private final Clock clock;
  private final Supplier<PeerCertifier> certifier;
  private final long startedAt;
  private volatile TrackerApi.Backup backup;
  private volatile CapacityHistory capacity;
  private volatile Supplier<ClusterView> cluster = () -> new ClusterView("tracker", List.of());

  AdminRoutes(Credentials credentials, Membership membership, Catalog catalog, RepairService repair, EventLog events, Clock clock,
      Supplier<PeerCertifier> certifier) {
    this.credentials = credentials;
    this.membership = membership;
    this.catalog = catalog;
    this.repair = repair;
    this.events = events;
    this.clock = clock;
    this.certifier = certifier;
    this.startedAt = clock.millis();
  }

  void setBackup(TrackerApi.Backup backup) {
    this.backup = backup;
  }

  void setCapacity(CapacityHistory capacity) {
    this.capacity = capacity;
  }

  void setCluster(Supplier<ClusterView> view) {
    this.cluster = view;
  }

  Response health(String method) throws ApiException {
    requireMethod(method, "GET");
    return json(200, new TrackerHealth("ok", membership.peers().size(), clock.millis() - startedAt));
  }

  Response dataPlane(String method) throws ApiException {
    requireMethod(method, "GET");
    return json(200, new DataPlaneKey(credentials.dataKey().bearerValue()));
  }

  Response cluster(String method) throws ApiException {
    requireMethod(method, "GET");
    return json(200, cluster.get());
  }

  /** {@code POST /api/v1/backup}: a backup of the tracker's data directory to a new directory on its host. */
  Response backup(String method, byte[] body) throws ApiException, IOException {
    requireMethod(method, "POST");
    BackupRequest b = read(body, BackupRequest.class);
    String to = required(b.to(), "to");
    if (!Path.of(to).isAbsolute()) {
      throw new ApiException(400, "to must be an absolute path on the tracker's host, was '" + to + "'");
    }
    TrackerApi.Backup target = backup;
    if (target == null) {
      throw new ApiException(503, "this tracker cannot make backups");
    }
    return json(200, target.to(Path.of(to)));
  }

  /** {@code POST /api/v1/tokens}: the rules of {@code token create}, then a token from this tracker's store of them. */
  Response tokens(String method, byte[] body) throws ApiException, IOException {
    requireMethod(method, "POST");
    TokenRequest t = read(body, TokenRequest.class);
    Role r = Role.parse(required(t.role(), "role"));
    String refused = TokenStore.refusal(r, t.apps() != null || t.readOnly(), t.uses());
    if (refused != null) {
      throw new IllegalArgumentException(refused);
    }
    if (t.expiresInSeconds() != null && t.expiresInSeconds() < 1) {
      throw new IllegalArgumentException("expiresInSeconds must be positive");
    }
    long now = clock.millis();
    String token = credentials.tokens().issue(r, t.apps(), t.readOnly(),
        t.expiresInSeconds() == null ? null : now + t.expiresInSeconds() * 1000, t.uses(), null, t.note(), now);
    return json(200, new TokenRequest.Answer(certifier.get() instanceof TrackerCa ca ? token + "#sha256:" + ca.pin() : token));
  }

  Response capacity(String method, Map<String, String> query) throws ApiException, IOException {
    requireMethod(method, "GET");
    CapacityHistory c = capacity;
    if (c == null) {
      throw new ApiException(404, "this tracker keeps no capacity history");
    }
    return json(200, c.series(Durations.parse(query.getOrDefault("window", "24h"))));
  }

  Response durability(String method, Principal who) throws ApiException, IOException {
    requireMethod(method, "GET");
    return json(200, repair.durability().onlyApps(who::covers));
  }

  Response events(String method, Map<String, String> query, Principal who) throws ApiException, IOException {
    requireMethod(method, "GET");
    long after = query.containsKey("after") ? parseLong(query.get("after"), "after") : 0;
    return json(200, new EventsPage(events.since(after, 500).stream().filter(e -> who.covers(appOf(e))).toList()));
  }

  Response apps(String method, Principal who) throws ApiException, IOException {
    requireMethod(method, "GET");
    return json(200, catalog.reads().appSummaries().stream().filter(a -> who.covers(a.app())).toList());
  }

  /** The app an event is about (committed, deleted, repaired: its subject starts with the app), or null. */
  private static String appOf(EventLog.Event e) {
    return switch (e.kind()) {
      case "committed", "deleted" -> e.subject().substring(0, Math.max(0, e.subject().indexOf('.')));
      case "repaired", "repair-failed" -> e.subject().substring(0, Math.max(0, e.subject().indexOf('/')));
      default -> null;
    };
  }
}
