package org.cairn.tracker.api;

/** A request the API refuses, with the HTTP status to answer and a message for the caller. */
final class ApiException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int status;

  ApiException(int status, String message) {
    super(message);
    this.status = status;
  }

  int status() {
    return status;
  }
}
