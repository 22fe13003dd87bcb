package org.cairn.core.util;

import java.nio.file.Path;

/** Cairn's directory in the user's cache: {@code $XDG_CACHE_HOME/cairn}, else {@code ~/.cache/cairn}. */
public final class UserCache {
  private UserCache() {}

  public static Path dir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return cache.resolve("cairn");
  }
}
