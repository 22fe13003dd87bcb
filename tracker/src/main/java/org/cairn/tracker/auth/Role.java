package org.cairn.tracker.auth;

import java.util.Locale;

/**
 * What a credential may do. {@code ADMIN}: everything (the operator). {@code CLIENT}: store, fetch
 * and inspect the apps in its scope. {@code DONOR}: an enrollment token; it may only register a new
 * peer, which then gets a {@code PEER} credential bound to its id: heartbeat, report and take
 * repair jobs as itself, nothing a client can.
 */
public enum Role {
  ADMIN, CLIENT, DONOR, PEER;

  public String spec() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses admin, client, donor or peer. */
  public static Role parse(String text) {
    for (Role r : values()) {
      if (r.spec().equals(text == null ? "" : text.toLowerCase(Locale.ROOT))) {
        return r;
      }
    }
    throw new IllegalArgumentException("role must be admin, client, donor or peer, was '" + text + "'");
  }
}
