package org.cairn.cli.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The jar a process runs, as the file system sees it at start (size, modification time, inode): a
 * resident agent ends when its jar is replaced (a new build), so it never serves commands with code
 * older than the client's. A process not run from a jar (tests) never sees a change.
 */
final class JarStamp {
  private final Path path;
  private final Object stamp;

  private JarStamp(Path path) {
    this.path = path;
    this.stamp = path == null ? null : read(path);
  }

  /** The jar this class was loaded from (null path: a class directory). */
  static JarStamp ofRunning() {
    try {
      Path p = Path.of(JarStamp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return new JarStamp(Files.isRegularFile(p) ? p : null);
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return new JarStamp(null);
    }
  }

  static JarStamp of(Path jar) {
    return new JarStamp(jar);
  }

  Path path() {
    return path == null ? Path.of("(classes)") : path;
  }

  /** Whether the jar is no longer the file this process started from (replaced, rewritten or removed). */
  boolean changed() {
    return path != null && !Objects.equals(stamp, read(path));
  }

  private static Object read(Path p) {
    try {
      BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
      return java.util.List.of(a.size(), a.lastModifiedTime().toMillis(), String.valueOf(a.fileKey()));
    } catch (IOException e) {
      return "missing";
    }
  }
}
