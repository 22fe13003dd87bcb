package org.cairn.gui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * How the donor app writes its files (the settings, the usage history): under a temporary name
 * renamed into place, so a crash leaves the old file or the new one, never half of one.
 */
final class AtomicWrite {
  private AtomicWrite() {}

  /** Replaces {@code file} with {@code text}, creating its directory if missing. */
  static void replace(Path file, String text) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
