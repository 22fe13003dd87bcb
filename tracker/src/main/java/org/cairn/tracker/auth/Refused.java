package org.cairn.tracker.auth;

/**
 * A service's refusal of a request it has authenticated: the caller may not act on what it names (403),
 * or the request conflicts with the grid's state (409). The API answers it with its one-line reason,
 * which names no secret.
 */
public final class Refused extends RuntimeException {
  private final int status;

  private Refused(int status, String reason) {
    super(reason);
    this.status = status;
  }

  /** The caller may not act on this (another app's chunk, another peer's pieces, another client's session). */
  public static Refused forbidden(String reason) {
    return new Refused(403, reason);
  }

  /** The request conflicts with what the grid holds now (an address a live peer has). */
  public static Refused conflict(String reason) {
    return new Refused(409, reason);
  }

  /** The HTTP status the API answers with: 403 or 409. */
  public int status() {
    return status;
  }
}
