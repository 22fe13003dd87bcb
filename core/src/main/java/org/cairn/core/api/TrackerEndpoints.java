package org.cairn.core.api;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A grid's trackers as {@code --tracker URL1,URL2,URL3} names them: one or more http(s) URLs of the
 * members of a tracker group. Calls go to one of them and move to the next when it cannot be
 * reached (see {@link TrackerHttp}); one URL is today's single tracker.
 */
public final class TrackerEndpoints {
  private TrackerEndpoints() {}

  /**
   * The URLs of a comma-separated list, in order, without repeats or trailing slashes.
   *
   * @throws IllegalArgumentException naming the entry that is not an http(s) URL with a host
   */
  public static List<URI> parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("no tracker URL given");
    }
    Set<URI> out = new LinkedHashSet<>();
    for (String part : spec.split(",")) {
      String s = part.strip();
      if (s.isEmpty()) {
        continue;
      }
      URI u;
      try {
        u = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("tracker must be a URL like http://127.0.0.1:7600, was '" + s + "'");
      }
      if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https")) || u.getHost() == null) {
        throw new IllegalArgumentException("tracker must be a URL like http://127.0.0.1:7600, was '" + s + "'");
      }
      out.add(u);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no tracker URL in '" + spec + "'");
    }
    long schemes = out.stream().map(URI::getScheme).distinct().count();
    if (schemes > 1) {
      throw new IllegalArgumentException("the trackers of one grid are all http or all https, not both: " + spec);
    }
    return new ArrayList<>(out);
  }
}
