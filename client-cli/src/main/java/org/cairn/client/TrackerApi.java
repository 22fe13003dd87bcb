package org.cairn.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.time.Duration;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.security.GridToken;

/** The client's view of the tracker API: {@link TrackerHttp} (kept as a name the client code uses). */
public final class TrackerApi {
  static final ObjectMapper JSON = TrackerHttp.JSON;

  private TrackerApi() {}

  public static TrackerHttp connect(URI base, GridToken token, Duration timeout) {
    return new TrackerHttp(base, token, timeout);
  }
}
