package org.cairn.tracker.api.route;

import static org.cairn.tracker.api.call.Requests.parseLong;
import static org.cairn.tracker.api.call.Requests.required;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import org.cairn.core.api.Endpoints;
import org.cairn.core.api.TokenRequest;
import org.cairn.core.api.catalog.BackupRequest;
import org.cairn.core.api.member.DataPlaneKey;
import org.cairn.core.api.status.ClusterView;
import org.cairn.core.api.status.TrackerHealth;
import org.cairn.core.config.Durations;
import org.cairn.tracker.api.call.ApiException;
import org.cairn.tracker.api.call.Bindings;
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
public final class AdminRoutes {
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
  private volatile Backup backup;
  private volatile CapacityHistory capacity;
  private volatile Supplier<ClusterView> cluster = () -> new ClusterView("tracker", List.of());

  public AdminRoutes(Credentials credentials, Membership membership, Catalog catalog, RepairService repair, EventLog events, Clock clock,
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

  public void setBackup(Backup backup) {
    this.backup = backup;
  }

  public void setCapacity(CapacityHistory capacity) {
    this.capacity = capacity;
  }

  public void setCluster(Supplier<ClusterView> view) {
    this.cluster = view;
  }

  public void bind(Bindings b) {
    b.on(Endpoints.HEALTH, c -> new TrackerHealth("ok", membership.peers().size(), clock.millis() - startedAt));
    b.on(Endpoints.DATAPLANE, c -> new DataPlaneKey(credentials.dataKey().bearerValue()));
    b.on(Endpoints.CLUSTER, c -> cluster.get());
    b.on(Endpoints.BACKUP, c -> backup(c.body()));
    b.on(Endpoints.TOKENS, c -> token(c.body()));
    b.on(Endpoints.CAPACITY, c -> {
      CapacityHistory h = capacity;
      if (h == null) {
        throw new ApiException(404, "this tracker keeps no capacity history");
      }
      return h.series(Durations.parse(c.query().getOrDefault("window", "24h")));
    });
    b.on(Endpoints.DURABILITY, c -> repair.durability().onlyApps(c.who()::covers));
    b.on(Endpoints.EVENTS, c -> {
      long after = c.query().containsKey("after") ? parseLong(c.query().get("after"), "after") : 0;
      return new EventsPage(events.since(after, 500).stream().filter(e -> visible(e, c.who())).toList());
    });
    b.on(Endpoints.APPS, c -> catalog.reads().appSummaries().stream().filter(a -> c.who().covers(a.app())).toList());
  }

  /** {@code POST /api/v1/backup}: a backup of the tracker's data directory to a new directory on its host. */
  private BackupRequest.Answer backup(BackupRequest b) throws ApiException, IOException {
    String to = required(b.to(), "to");
    if (!Path.of(to).isAbsolute()) {
      throw new ApiException(400, "to must be an absolute path on the tracker's host, was '" + to + "'");
    }
    Backup target = backup;
    if (target == null) {
      throw new ApiException(503, "this tracker cannot make backups");
    }
    return target.to(Path.of(to));
  }

  /** {@code POST /api/v1/tokens}: the rules of {@code token create}, then a token from this tracker's store of them. */
  private TokenRequest.Answer token(TokenRequest t) throws ApiException, IOException {
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
    return new TokenRequest.Answer(certifier.get() instanceof TrackerCa ca ? token + "#sha256:" + ca.pin() : token);
  }

  /**
   * Whether {@code who} may see event {@code e}: one about an app only if the app is in its scope; one
   * of an app kind stored before events named their app, only by a caller that sees every app.
   */
  static boolean visible(EventLog.Event e, Principal who) {
    if (e.app() != null) {
      return who.covers(e.app());
    }
    return !APP_KINDS.contains(e.kind()) || who.role() != Role.CLIENT || who.apps() == null;
  }

  /** Kinds of events about an app (what events stored before they named their app say nothing more of). */
  private static final java.util.Set<String> APP_KINDS = java.util.Set.of("committed", "deleted", "repaired", "repair-failed",
      "set expired", "soft pieces lost");
}
