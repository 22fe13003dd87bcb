package org.cairn.tracker.api;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.Caller;
import org.cairn.core.api.Endpoint;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.auth.Principal;
import org.cairn.tracker.auth.Role;
import org.cairn.tracker.catalog.Catalog;

/**
 * Who may make a call, by the endpoint's declared rule and nothing else: the caller's role against
 * the endpoint's {@link Caller}s, read-only clients against writes, a peer's credential against the
 * peer the request names, a client's app scope against the app it names and the chunks it is about.
 * Every refusal is a 403 whose message names the caller (never a secret) and what was refused.
 */
final class Gate {
  /** The most chunks one call may ask the scope check about. */
  static final int MAX_CHUNKS = 100_000;

  private final Catalog catalog;

  Gate(Catalog catalog) {
    this.catalog = catalog;
  }

  /** The 403 for {@code who} calling {@code e} at all, before its body is read; null if the role may. */
  static String roleRefusal(Principal who, Endpoint<?, ?> e) {
    if (who.role() == Role.ADMIN) {
      return null;
    }
    if (!allows(e.callers(), who.role())) {
      Set<Caller> needs = e.callers();
      return who.describe() + " may not call " + e.name() + (needs.equals(Set.of(Caller.ADMIN)) ? " (admin only)" : " (it needs: "
          + String.join(", ", needs.stream().map(c -> c.name().toLowerCase(java.util.Locale.ROOT)).toList()) + ")");
    }
    if (who.readOnly() && e.isWrite()) {
      return who.describe() + " is read-only and may not call " + e.name();
    }
    return null;
  }

  private static boolean allows(Set<Caller> callers, Role role) {
    if (callers.contains(Caller.ANY)) {
      return true;
    }
    return switch (role) {
      case ADMIN -> true;
      case CLIENT -> callers.contains(Caller.CLIENT);
      case DONOR -> callers.contains(Caller.DONOR);
      case PEER -> callers.contains(Caller.PEER_SELF);
    };
  }

  /**
   * The 403 for what the request names, once its body is read: the peer a peer credential acts as,
   * the app and the chunks a client touches; null if all are the caller's.
   */
  <R> String scopeRefusal(Principal who, Endpoint<R, ?> e, Map<String, String> path, Map<String, String> query, R body)
      throws IOException {
    if (who.role() == Role.PEER && !e.callers().contains(Caller.ANY)) {
      String peer = e.peer().of(path, query, body);
      if (peer == null || !peer.equals(who.peer())) {
        return who.describe() + " may act only as peer " + who.peer() + ", not as " + peer;
      }
    }
    if (who.role() != Role.CLIENT) {
      return null;
    }
    String app = e.app() == null ? null : e.app().of(path, query, body);
    if (app != null && !who.covers(app)) {
      return who.describe() + " may not touch app " + app;
    }
    List<String> chunks = e.chunks() == null ? null : e.chunks().of(path, query, body);
    if (chunks != null) {
      if (chunks.size() > MAX_CHUNKS) {
        throw new IllegalArgumentException("name at most " + MAX_CHUNKS + " chunks per call, got " + chunks.size());
      }
      Set<ChunkId> ids = new LinkedHashSet<>();
      for (String hex : chunks) {
        if (hex == null) {
          throw new IllegalArgumentException("a fragment key is missing");
        }
        ids.add(ChunkId.parse(hex)); // a malformed id: IllegalArgumentException, a 400
      }
      for (ChunkId id : ids) {
        if (!catalog.referencedByApp(id, who::covers)) {
          return who.describe() + " may not report on chunk " + id.shortHex() + ": no version of its apps holds it";
        }
      }
    }
    return null;
  }
}
