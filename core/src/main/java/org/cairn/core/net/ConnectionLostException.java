package org.cairn.core.net;

import java.io.IOException;

/**
 * A request failed because its connection closed or broke after it was open (not because the peer
 * could not be reached, nor because of its answer): asking again on a new connection may succeed.
 */
public final class ConnectionLostException extends IOException {
  private static final long serialVersionUID = 1L;

  public ConnectionLostException(String message) {
    super(message);
  }

  public ConnectionLostException(String message, Throwable cause) {
    super(message, cause);
  }
}
