package org.cairn.client.mount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The mount's local directories under its cache directory: {@code staging/NODE/.new-STEP/} holds a
 * directory checkpoint being written (stored as one version when renamed to {@code STEP}), and
 * {@code versions/NODE/STEP/} a directory version fetched on first access and kept until it is
 * deleted or the mount ends (a mount starting on a --cache-dir removes the copies an earlier one
 * left; staged directories stay). Names come from the kernel's path components, never {@code ..}.
 */
final class LocalTrees {
  private final Path staging;
  private final Path versions;
  private final MountGrid grid;
  private final Map<String, ReentrantLock> fetching = new ConcurrentHashMap<>();

  LocalTrees(Path cacheDir, MountGrid grid) throws IOException {
    this.staging = Files.createDirectories(cacheDir.resolve("staging"));
    Path fetched = cacheDir.resolve("versions");
    if (Files.exists(fetched)) {
      // fetched copies are a cache of this mount's life (a version may have been deleted since); staged
      // directories are the user's writes and stay
      org.apache.commons.io.file.PathUtils.deleteDirectory(fetched);
    }
    this.versions = Files.createDirectories(fetched);
    this.grid = grid;
  }

  /** Where staging entry {@code p} (or something inside it) lives here. */
  Path staged(MountPath p) {
    Path dir = staging.resolve(p.node()).resolve(p.name());
    return p.rest() == null ? dir : dir.resolve(p.rest());
  }

  /** The staged directories of {@code node}. */
  java.util.List<String> stagedNames(String node) throws IOException {
    Path dir = staging.resolve(node);
    if (!Files.isDirectory(dir)) {
      return java.util.List.of();
    }
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      return s.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  /** Directory version node/step (or something inside it) here, fetched first if it is not yet. */
  Path version(MountPath p, long step) throws IOException {
    Path dir = versions.resolve(p.node()).resolve(Long.toString(step));
    if (!Files.isDirectory(dir)) {
      ReentrantLock lock = fetching.computeIfAbsent(p.node() + "/" + step, k -> new ReentrantLock());
      lock.lock();
      try {
        if (!Files.isDirectory(dir)) {
          Files.createDirectories(dir.getParent());
          grid.fetchDirectory(p.node(), step, dir);
        }
      } finally {
        lock.unlock();
      }
    }
    return p.rest() == null ? dir : within(dir, p.rest());
  }

  /**
   * {@code rest} under the fetched version {@code dir}, refused if a directory on its way is a
   * symbolic link: the kernel follows a version's links itself, so the file system never should.
   */
  static Path within(Path dir, String rest) throws IOException {
    Path at = dir;
    String[] parts = rest.split("/");
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].isEmpty() || parts[i].equals(".")) {
        continue;
      }
      if (parts[i].equals("..")) {
        throw new IOException("refusing " + rest + ": it goes up out of the version");
      }
      at = at.resolve(parts[i]);
      if (i < parts.length - 1 && Files.isSymbolicLink(at)) {
        throw new IOException("refusing " + rest + ": it goes through the symbolic link " + dir.relativize(at));
      }
    }
    return at;
  }

  /** Forgets a fetched directory version (it was deleted). */
  void forget(String node, long step) throws IOException {
    Path dir = versions.resolve(node).resolve(Long.toString(step));
    if (Files.exists(dir)) {
      org.apache.commons.io.file.PathUtils.deleteDirectory(dir);
    }
  }
}
