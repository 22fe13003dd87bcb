package org.cairn.tracker.api;

import java.util.Map;

/** What {@link HttpApiServer} hands each request to: the tracker's API, or a group member's front. */
public interface RequestHandler {
  Response handle(String method, String path, Map<String, String> query, byte[] body, String authorization);
}
