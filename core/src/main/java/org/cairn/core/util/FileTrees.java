package org.cairn.core.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** Whole directory trees. */
public final class FileTrees {
  private FileTrees() {}

  /** Deletes {@code root} and everything under it (nothing if it does not exist); the first failure is thrown. */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
