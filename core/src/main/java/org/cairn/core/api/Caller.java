package org.cairn.core.api;

/**
 * Who may call an {@link Endpoint}: the tracker's router refuses every other caller before the
 * endpoint's handler runs. The admin credential may call every endpoint; a client only within its
 * app scope and, when read-only, only endpoints that do not write.
 */
public enum Caller {
  /** Anyone, with no credential at all: the status page's own files. */
  ANONYMOUS,
  /** No credential, when the operator opened the status page ({@code --status-page public}): its read-only data. */
  PUBLIC_PAGE,
  /** Any valid credential (whatever its role). */
  ANY,
  /** The operator's credential. */
  ADMIN,
  /** A client credential (within its app scope; a read-only one only where nothing is written). */
  CLIENT,
  /** A donor's enrollment token (it registers new peers). */
  DONOR,
  /** A peer's own credential, acting as the peer the request names and no other. */
  PEER_SELF
}
