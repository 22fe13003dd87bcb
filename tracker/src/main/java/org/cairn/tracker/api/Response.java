package org.cairn.tracker.api;

/** A routed answer: status, content type and body bytes. */
public record Response(int status, String contentType, byte[] body) {
  static final String JSON = "application/json; charset=utf-8";
  static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

  /** A JSON answer whose body is already serialised. */
  public static Response json(int status, byte[] body) {
    return new Response(status, JSON, body);
  }
}
