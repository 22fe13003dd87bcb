package org.cairn.tracker.auth;

import java.util.List;

/**
 * The caller a request's credential names. {@code apps}: the app names or prefixes ({@code heat*})
 * a client may touch, null for all; {@code peer}: the peer id a {@code PEER} credential is bound to.
 */
public record Principal(String tokenId, Role role, List<String> apps, boolean readOnly, String peer) {
  /** The operator's credential given with {@code --token-file} (a grid that sets one admin token itself). */
  public static final Principal OPERATOR = new Principal("operator", Role.ADMIN, null, false, null);

  /** Whether this principal may touch {@code app} (always, but for a client scoped to other apps; a null app: about no app). */
  public boolean covers(String app) {
    if (apps == null || role != Role.CLIENT || app == null) {
      return true;
    }
    for (String a : apps) {
      if (a.endsWith("*") ? app.startsWith(a.substring(0, a.length() - 1)) : app.equals(a)) {
        return true;
      }
    }
    return false;
  }

  /** How a refusal names the caller: role and token id, never the secret. */
  public String describe() {
    return role.spec() + " credential " + tokenId + (peer != null ? " (peer " + peer + ")" : "")
        + (apps != null && role == Role.CLIENT ? " (apps " + String.join(",", apps) + ")" : "") + (readOnly ? " (read-only)" : "");
  }
}
