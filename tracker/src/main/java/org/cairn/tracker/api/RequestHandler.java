package org.cairn.tracker.api;

import java.util.Map;
import org.cairn.tracker.api.call.Response;

/** What {@link HttpApiServer} hands each request to: the tracker's API, or a group member's front. */
public interface RequestHandler {
  /** Largest body of a request whose head says nothing more (no endpoint, no credential). */
  int HEAD_ONLY_BODY = 64 << 10;

  Response handle(String method, String path, Map<String, String> query, byte[] body, String authorization);

  /**
   * Whether the request with this method and path is answered on the network thread that read it, not handed to a
   * handler thread: only for calls that never wait (no disk, no log round trip, no lock held across one) and cost less
   * than the hand-off. None by default.
   */
  default boolean inline(String method, String path) {
    return false;
  }

  /**
   * How large a body the request with this head may send, judged before any of it is read, and the
   * status and message that answer a larger one (413 for an endpoint's limit, 401 for a caller the
   * tracker does not know).
   */
  default Limit limit(String method, String path, String authorization) {
    return new Limit(HEAD_ONLY_BODY, 413, "request body is larger than " + HEAD_ONLY_BODY + " bytes");
  }

  /** A body limit: {@code maxBytes}, and what answers a request over it. */
  record Limit(long maxBytes, int status, String message) {}
}
