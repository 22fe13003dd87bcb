package org.cairn.cli.podman;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.io.file.PathUtils;

/**
 * A private directory (0700) for one export tar (it holds the container's memory): removed when closed, and by a
 * shutdown hook if the command is ended first (Ctrl-C, SIGTERM), so no tar is left behind but after SIGKILL.
 */
final class Scratch implements AutoCloseable {
  private final Path dir;
  private final Thread hook;

  private Scratch(Path dir) {
    this.dir = dir;
    this.hook = new Thread(this::removeQuietly, "remove " + dir);
  }

  /** A new private directory under {@code parent} (made if missing), named {@code prefix} and a random part. */
  static Scratch under(Path parent, String prefix) throws IOException {
    Files.createDirectories(parent);
    Scratch s = new Scratch(Files.createTempDirectory(parent, prefix)); // 0700 on POSIX
    Runtime.getRuntime().addShutdownHook(s.hook);
    return s;
  }

  Path dir() {
    return dir;
  }

  /** A new file of this directory, 0600, for a tar. */
  Path tar(String name) throws IOException {
    return Files.createFile(dir.resolve(name), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
  }

  @Override
  public void close() throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      return; // the hook is running or will: it removes the directory
    }
    PathUtils.deleteDirectory(dir);
  }

  private void removeQuietly() {
    try {
      PathUtils.deleteDirectory(dir);
    } catch (IOException e) {
      System.err.println("cairn podman: could not remove " + dir + ": " + e.getMessage());
    }
  }
}
