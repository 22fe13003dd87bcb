package org.cairn.tracker.api.call;

import java.util.Map;
import org.cairn.tracker.auth.Principal;

/**
 * One request as a handler gets it, after the router matched its endpoint and authorized it:
 * {@code who} may make this call on what it names (role, peer, app scope, read-only all checked),
 * {@code path} holds the template's parameters, {@code body} the decoded request (null when the
 * endpoint takes none, or an optional one was empty).
 */
public record Call<R>(Principal who, Map<String, String> path, Map<String, String> query, R body) {
  /** The path parameter {@code name} (the template guarantees it is there and not empty). */
  public String param(String name) {
    return path.get(name);
  }

  /** How the tracker names the caller in tickets and reports: "role:tokenId". */
  public String callerId() {
    return who.role().spec() + ":" + who.tokenId();
  }
}
