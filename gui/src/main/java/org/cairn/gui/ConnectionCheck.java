package org.cairn.gui;

import java.time.Duration;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerEndpoints;
import org.cairn.core.security.GridToken;

/** Asks the tracker whether it accepts a token (an authenticated GET /api/v1/cluster) before the donor saves it. */
final class ConnectionCheck {
  private ConnectionCheck() {}

  /** What is wrong with reaching {@code tracker} with {@code token}, in one sentence, or null when the tracker accepts it. */
  static String problem(String tracker, String token) {
    if (token == null || token.isBlank()) {
      return "enter the grid token the grid's operator gave you";
    }
    try {
      GridToken t = GridToken.of(token.trim());
      new TrackerClient(TrackerEndpoints.parse(tracker), t, Duration.ofSeconds(5)).cluster();
      return null;
    } catch (IllegalArgumentException e) {
      return "the token is not a grid token: " + e.getMessage();
    } catch (java.io.IOException e) {
      String m = e.getMessage() == null ? e.toString() : e.getMessage();
      int cut = m.indexOf("; check --token-file");
      cut = cut < 0 ? m.indexOf(" (is it running?") : cut;
      return cut < 0 ? m : m.substring(0, cut);
    }
  }
}
