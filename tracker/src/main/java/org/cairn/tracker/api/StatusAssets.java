package org.cairn.tracker.api;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

/** The status page, served from the jar (no CDN: grids are often offline), and which calls it may make without a token. */
final class StatusAssets {
  private static final Set<String> ASSETS = Set.of("index.html", "app.js", "style.css", "uPlot.iife.min.js", "uPlot.min.css");

  private StatusAssets() {
  }

  /** Whether a GET of {@code path} is the page itself. */
  static boolean isPage(String path) {
    return path.equals("/") || path.equals("/index.html") || path.startsWith("/ui/");
  }

  static Response serve(String path) throws IOException {
    String name = path.equals("/") ? "index.html" : path.substring(path.lastIndexOf('/') + 1);
    if (!ASSETS.contains(name)) {
      return Requests.error(404, "no such page: " + path);
    }
    try (InputStream in = StatusAssets.class.getResourceAsStream("/status/" + name)) {
      if (in == null) {
        return Requests.error(500, "status page asset " + name + " is missing from the jar");
      }
      String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8"
          : "text/css; charset=utf-8";
      return new Response(200, type, in.readAllBytes());
    }
  }

  /** What the status page reads; never writes, manifests (holder addresses per chunk) or metrics. */
  static boolean readOnly(String path) {
    return path.matches("/api/v1/(health|peers|peers/[^/]+|peers/[^/]+/history|durability|capacity|apps|versions|events|compute"
        + "|compute/[^/]+/history|availability)");
  }
}
