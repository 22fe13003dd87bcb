package org.cairn.tracker.auth;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The route table: which roles may call each API route (route names as TrackerApi names them:
 * {@code METHOD /resource[/{id}[/action]]}). Admin may call everything. A peer credential may call
 * the {@code /peers/{id}/...} routes only for its own id; a donor enrollment token only registers.
 * Clients' app scope and read-only flag are checked where a route names its app.
 */
public final class Access {
  private static final Set<Role> CLIENT = EnumSet.of(Role.ADMIN, Role.CLIENT);
  private static final Set<Role> SELF = EnumSet.of(Role.ADMIN, Role.PEER);

  private static final Map<String, Set<Role>> ROUTES = Map.ofEntries(
      Map.entry("GET /health", EnumSet.allOf(Role.class)),
      Map.entry("GET /cluster", EnumSet.allOf(Role.class)),
      Map.entry("metrics", CLIENT),
      Map.entry("GET /peers", CLIENT),
      Map.entry("GET /capacity", CLIENT),
      Map.entry("POST /tokens", EnumSet.of(Role.ADMIN)),
      Map.entry("POST /peers", EnumSet.of(Role.ADMIN, Role.DONOR, Role.PEER)),
      Map.entry("GET /peers/{id}", CLIENT),
      Map.entry("GET /peers/{id}/history", CLIENT),
      Map.entry("POST /peers/{id}/heartbeat", SELF),
      Map.entry("POST /peers/{id}/leave", SELF),
      Map.entry("POST /peers/{id}/inventory", SELF),
      Map.entry("POST /peers/{id}/repair", SELF),
      Map.entry("POST /peers/{id}/repaired", SELF),
      Map.entry("GET /peers/{id}/assigned", SELF),
      Map.entry("POST /peers/{id}/bad", EnumSet.of(Role.ADMIN, Role.PEER, Role.CLIENT)),
      Map.entry("GET /compute", CLIENT),
      Map.entry("GET /compute/{id}", CLIENT),
      Map.entry("POST /compute/{id}/heartbeat", CLIENT),
      Map.entry("GET /compute/{id}/history", CLIENT),
      Map.entry("GET /availability", CLIENT),
      Map.entry("POST /bandwidth", CLIENT),
      Map.entry("POST /placement", CLIENT),
      Map.entry("GET /chunks", CLIENT),
      Map.entry("POST /chunks/{id}", CLIENT),
      Map.entry("GET /versions", CLIENT),
      Map.entry("GET /sets", CLIENT),
      Map.entry("POST /versions", CLIENT),
      Map.entry("DELETE /versions", CLIENT),
      Map.entry("POST /stores/{id}/pending", CLIENT),
      Map.entry("DELETE /stores/{id}", CLIENT),
      Map.entry("GET /manifest", CLIENT),
      Map.entry("GET /records", CLIENT),
      Map.entry("POST /records", CLIENT),
      Map.entry("GET /durability", CLIENT),
      Map.entry("GET /events", CLIENT),
      Map.entry("GET /apps", CLIENT),
      Map.entry("GET /policy", CLIENT),
      Map.entry("POST /policy", CLIENT),
      Map.entry("GET /dataplane", CLIENT));

  /** Routes that change what a client stores: refused to read-only clients. */
  private static final Set<String> WRITES = Set.of("POST /versions", "DELETE /versions", "POST /stores/{id}/pending",
      "DELETE /stores/{id}", "POST /policy", "POST /placement", "GET /records", "POST /records");

  private Access() {}

  /**
   * Null if {@code who} may call {@code route} (for peer routes, on peer {@code id}); otherwise the
   * reason for a 403, naming the role and what the route needs (never a secret).
   */
  public static String refusal(Principal who, String route, String id) {
    if (who.role() == Role.ADMIN) {
      return null;
    }
    Set<Role> allowed = ROUTES.get(route);
    if (allowed == null || !allowed.contains(who.role())) {
      return who.describe() + " may not call " + route + (allowed == null ? " (admin only)" : " (it needs: " + names(allowed) + ")");
    }
    boolean peerRoute = route.startsWith("POST /peers/{id}") || route.startsWith("GET /peers/{id}");
    if (who.role() == Role.PEER && peerRoute && (id == null || !id.equals(who.peer()))) {
      return who.describe() + " may act only as peer " + who.peer() + ", not as " + id;
    }
    if (who.readOnly() && WRITES.contains(route)) {
      return who.describe() + " is read-only and may not call " + route;
    }
    return null;
  }

  /** Null if {@code who} may touch {@code app}; otherwise the 403's reason. */
  public static String appRefusal(Principal who, String app) {
    return who.covers(app) ? null : who.describe() + " may not touch app " + app;
  }

  private static String names(Set<Role> roles) {
    StringBuilder sb = new StringBuilder();
    for (Role r : roles) {
      sb.append(sb.length() > 0 ? ", " : "").append(r.spec());
    }
    return sb.toString();
  }
}
