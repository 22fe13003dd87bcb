package org.cairn.tracker.api.call;

/** A request the API refuses, with the HTTP status to answer and a message for the caller. */
public final class ApiException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int status;

  public ApiException(int status, String message) {
    super(message);
    this.status = status;
  }

  public int status() {
    return status;
  }
}
