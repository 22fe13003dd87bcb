package org.cairn.tracker.api.route;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import org.cairn.core.api.Endpoints;
import org.cairn.tracker.api.call.Bindings;
import org.cairn.tracker.api.call.Response;

/**
 * The status page, served from the jar (no CDN: grids are often offline). Which of the API's calls it
 * may make without a token is the endpoint table's {@code PUBLIC_PAGE} rule.
 */
public final class StatusAssets {
  private static final Set<String> ASSETS = Set.of("index.html", "app.js", "style.css", "uPlot.iife.min.js", "uPlot.min.css");

  private StatusAssets() {
  }

  public static void bind(Bindings b) {
    b.on(Endpoints.PAGE, c -> serve("index.html"));
    b.on(Endpoints.PAGE_INDEX, c -> serve("index.html"));
    b.on(Endpoints.PAGE_ASSET, c -> serve(c.param("file")));
  }

  private static Response serve(String name) throws IOException {
    if (!ASSETS.contains(name)) {
      return Response.error(404, "no such page: /ui/" + name);
    }
    try (InputStream in = StatusAssets.class.getResourceAsStream("/status/" + name)) {
      if (in == null) {
        return Response.error(500, "status page asset " + name + " is missing from the jar");
      }
      String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8"
          : "text/css; charset=utf-8";
      return new Response(200, type, in.readAllBytes());
    }
  }
}
