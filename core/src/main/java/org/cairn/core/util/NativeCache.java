package org.cairn.core.util;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.jar.JarEntry;

/**
 * Native libraries unpacked from the jar once per user and library build, not at every start.
 * RocksJava unpacks its 14 MB library into the temporary directory each time a process loads it
 * (inflating it from the jar: ~0.16 CPU-s of a peer's or tracker's ~1 s start here); a library in
 * {@code $XDG_CACHE_HOME/cairn/native} (else {@code ~/.cache/cairn/native}, or {@code
 * -Dcairn.nativeCache=DIR}) is unpacked once, under a directory named by the jar entry's CRC-32 and
 * size (from the jar's directory, without reading the entry), written to a temporary file, synced
 * and renamed, so a process never maps a half-written file; each load checks the file's CRC-32
 * against the entry's first (a damaged library would crash the process, not fail to load). Where
 * that cannot be done the caller's own loading runs instead.
 */
public final class NativeCache {
  private NativeCache() {}

  /**
   * Loads {@code resource} (a native library in the jar that holds {@code owner}) by giving {@code
   * fromDirs} the cache directory where it lies as {@code asName}; if it cannot be unpacked there,
   * or {@code fromDirs} throws {@link UnsatisfiedLinkError} (a cached file that does not load),
   * runs {@code fallback}.
   */
  public static void load(Class<?> owner, String resource, String asName, Consumer<List<String>> fromDirs, Runnable fallback) {
    load(owner.getClassLoader(), resource, asName, root(), fromDirs, fallback);
  }

  static void load(ClassLoader loader, String resource, String asName, Path root, Consumer<List<String>> fromDirs,
      Runnable fallback) {
    Optional<Path> dir = unpack(loader, resource, asName, root);
    if (dir.isPresent()) {
      try {
        fromDirs.accept(List.of(dir.get().toString()));
        return;
      } catch (UnsatisfiedLinkError e) {
        try {
          Files.deleteIfExists(dir.get().resolve(asName)); // unpacked again by the next start
        } catch (IOException ignored) {
          // the fallback below still loads the library
        }
      }
    }
    fallback.run();
  }

  /**
   * The directory under {@code root} holding {@code resource} as {@code asName}, unpacking it if
   * needed; empty if it cannot.
   */
  static Optional<Path> unpack(ClassLoader loader, String resource, String asName, Path root) {
    try {
      URL url = loader.getResource(resource);
      if (url == null) {
        return Optional.empty();
      }
      URLConnection c = url.openConnection();
      c.setUseCaches(false);
      if (!(c instanceof JarURLConnection jar)) {
        return Optional.empty();
      }
      JarEntry entry = jar.getJarEntry();
      if (entry.getCrc() < 0 || entry.getSize() < 0) {
        return Optional.empty();
      }
      Path dir = root.resolve(resource.replace('/', '_') + "-" + Long.toHexString(entry.getCrc()) + "-" + entry.getSize());
      Path file = dir.resolve(asName);
      if (Files.isRegularFile(file) && Files.size(file) == entry.getSize() && crc32(file) == entry.getCrc()) {
        return Optional.of(dir); // whole: a damaged library would not fail to load but crash the process
      }
      createPrivate(dir);
      Path tmp = Files.createTempFile(dir, ".unpacking-", ".tmp");
      try {
        try (InputStream in = jar.getJarFile().getInputStream(entry)) {
          Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
          ch.force(true);
        }
        if (Files.size(tmp) != entry.getSize() || crc32(tmp) != entry.getCrc()) {
          return Optional.empty();
        }
        try {
          Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          return Optional.empty();
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
      return Optional.of(dir);
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // no cache: the caller's own loading
    }
  }

  /** The file's CRC-32 (~5 ms for RocksDB's library from the page cache, against ~100 ms to inflate it). */
  private static long crc32(Path file) throws IOException {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocateDirect(1 << 16);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (ch.read(buf) >= 0) {
        buf.flip();
        crc.update(buf);
        buf.clear();
      }
    }
    return crc.getValue();
  }

  /** Where libraries are unpacked: {@code -Dcairn.nativeCache}, else the user's cache directory. */
  public static Path root() {
    String configured = System.getProperty("cairn.nativeCache");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return UserCache.dir().resolve("native");
  }

  /** Creates the directory and its missing parents, the new ones readable by this user only. */
  private static void createPrivate(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      createPrivate(parent);
    }
    try {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // made meanwhile by another process
    } catch (UnsupportedOperationException e) {
      Files.createDirectories(dir);
    }
  }
}
