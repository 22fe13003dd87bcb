package org.cairn.tracker.api.call;

/** A routed answer: status, content type and body bytes. */
public record Response(int status, String contentType, byte[] body) {
  public static final String JSON = "application/json; charset=utf-8";
  public static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

  /** A JSON answer whose body is already serialised. */
  public static Response json(int status, byte[] body) {
    return new Response(status, JSON, body);
  }

  /** An {@link org.cairn.core.api.ApiError} answer: {@code status} and a one-line message for the caller. */
  public static Response error(int status, String message) {
    return Requests.json(status, new org.cairn.core.api.ApiError(status, message));
  }
}
