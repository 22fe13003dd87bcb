package org.cairn.client.keys;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Directories and files other local users must not read: the agent's spool, the base cache, the
 * mount's cache and the key directory hold plaintext checkpoint data or secret keys. A directory is
 * created with mode 0700 in the {@code mkdir} call itself (never created with the umask and
 * tightened after, which leaves a window), and an existing one with group or other bits is
 * tightened with a warning. A secret file is written to a temporary file created 0600 beside it,
 * synced, and moved or linked into place, so it never exists readable by others, nor half written.
 */
public final class PrivateDirs {
  private static final Logger LOG = LoggerFactory.getLogger(PrivateDirs.class);
  public static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
  public static final Set<PosixFilePermission> SECRET_FILE = PosixFilePermissions.fromString("rw-------");

  private PrivateDirs() {}

  /** {@code 0700} at creation, as a file attribute (the umask can only narrow it). */
  public static FileAttribute<Set<PosixFilePermission>> ownerOnly() {
    return PosixFilePermissions.asFileAttribute(OWNER_ONLY);
  }

  /**
   * Makes {@code dir} a directory only its owner can enter: created 0700 if missing (its missing
   * parents as usual), tightened to 0700 with a warning if group or others had access.
   *
   * @return {@code dir}
   */
  public static Path ensure(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Path parent = dir.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try {
        Files.createDirectory(dir, posix(dir) ? new FileAttribute<?>[] {ownerOnly()} : new FileAttribute<?>[0]);
        return dir;
      } catch (FileAlreadyExistsException raced) {
        if (!Files.isDirectory(dir)) {
          throw new IOException(dir + " exists and is not a directory");
        }
      }
    }
    tighten(dir);
    return dir;
  }

  /** An existing directory readable, writable or searchable by group or others is made 0700, with a warning. */
  static void tighten(Path dir) throws IOException {
    if (!posix(dir)) {
      return;
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
    if (OWNER_ONLY.containsAll(perms)) {
      return; // nothing for group or others
    }
    LOG.warn("{} was {}: other local users could reach its contents; made rwx------", dir, PosixFilePermissions.toString(perms));
    try {
      Files.setPosixFilePermissions(dir, OWNER_ONLY);
    } catch (IOException e) {
      throw new IOException(dir + " is " + PosixFilePermissions.toString(perms) + " and cannot be made private ("
          + e.getMessage() + "); fix its owner or mode", e);
    }
  }

  /**
   * Writes {@code bytes} as the secret file {@code target}: a 0600 temporary file in the same
   * directory, written and synced, then linked into place when {@code replace} is false (an existing
   * target is never replaced: {@link FileAlreadyExistsException}) or renamed over it when true.
   */
  public static void writeSecret(Path target, byte[] bytes, boolean replace) throws IOException {
    Path abs = target.toAbsolutePath();
    Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName() + ".",
        ".tmp", posix(abs.getParent()) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(SECRET_FILE)}
            : new FileAttribute<?>[0]);
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      if (replace) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } else {
        try {
          Files.createLink(abs, tmp); // fails if the target exists
        } catch (UnsupportedOperationException e) {
          if (Files.exists(abs)) {
            throw new FileAlreadyExistsException(abs.toString());
          }
          Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE);
        }
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static boolean posix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
