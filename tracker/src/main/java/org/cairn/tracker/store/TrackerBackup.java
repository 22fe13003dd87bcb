package org.cairn.tracker.store;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import org.apache.commons.io.file.PathUtils;
import org.cairn.core.api.catalog.BackupRequest;

/**
 * A consistent copy of a tracker's data directory: the database as a RocksDB checkpoint (hard links
 * where the backup is on the same file system, copies elsewhere; taken while the tracker serves),
 * then its keys, tokens and CA as files. Written under a temporary name beside the target and
 * renamed into place once complete, so a backup directory either is whole or does not exist. The
 * copy is itself a data directory: restoring is starting a tracker with {@code --data} on it (or on
 * a copy of it).
 */
public final class TrackerBackup {
  private TrackerBackup() {}

  /** Backs up {@code store} (the database of {@code dataDir}) to {@code to}, which must not exist. */
  public static BackupRequest.Answer write(TrackerStore store, Path dataDir, Path to) throws IOException {
    long t0 = System.nanoTime();
    Path target = to.toAbsolutePath().normalize();
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException("backup target " + target + " exists; name a new directory");
    }
    Path data = dataDir.toAbsolutePath().normalize();
    if (target.startsWith(data)) {
      throw new IllegalArgumentException("backup target " + target + " is inside the data directory " + data);
    }
    Path parent = target.getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new IllegalArgumentException("backup target's parent " + parent + " is not a directory");
    }
    Path tmp = parent.resolve("." + target.getFileName() + ".partial");
    if (Files.exists(tmp)) {
      PathUtils.deleteDirectory(tmp);
    }
    Files.createDirectory(tmp);
    boolean done = false;
    try {
      store.checkpoint(tmp.resolve("db"));
      try (Stream<Path> entries = Files.list(data)) {
        for (Path e : (Iterable<Path>) entries::iterator) {
          String name = e.getFileName().toString();
          if (!name.equals("db") && !name.equals("raft") && !name.startsWith(".")) { // a group member's log is not part of it
            copyTree(e, tmp.resolve(name));
          }
        }
      }
      long[] counts = store.count(TrackerStore.Family.VERSIONS, TrackerStore.Family.CHUNKS);
      long bytes = PathUtils.sizeOfDirectory(tmp);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      done = true;
      return new BackupRequest.Answer(target.toString(), counts[0], counts[1], bytes, (System.nanoTime() - t0) / 1e9);
    } finally {
      if (!done && Files.exists(tmp)) {
        PathUtils.deleteDirectory(tmp);
      }
    }
  }

  /** Copies a file or a tree, keeping permissions (keys stay 0600). */
  private static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        Path d = to.resolve(from.relativize(dir).toString());
        Files.createDirectories(d);
        Files.setPosixFilePermissions(d, Files.getPosixFilePermissions(dir));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
