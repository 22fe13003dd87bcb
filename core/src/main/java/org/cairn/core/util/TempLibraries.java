package org.cairn.core.util;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Native libraries that jars unpack into the temporary directory (RocksJava writes a 14 MB
 * {@code librocksdbjni*.so} there at every start and deletes it only at a clean exit). A donor that
 * is killed — on a desktop grid, routinely — leaves one behind each time: thousands were found
 * after a day of tests here. Once the library is loaded its file is not needed on Linux (the
 * mapping stays valid after the unlink), so each process removes its own copy right away, and
 * copies that no running process maps any more are swept.
 */
public final class TempLibraries {
  private TempLibraries() {}

  /**
   * Deletes the files named {@code prefix*.so} in the temporary directory that this process has
   * mapped (read from /proc/self/maps; nothing happens where that does not exist). Returns how many.
   */
  public static int unlinkLoaded(String prefix) {
    Path maps = Path.of("/proc/self/maps");
    if (!Files.isReadable(maps)) {
      return 0;
    }
    Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
    int n = 0;
    try {
      List<String> lines = Files.readAllLines(maps);
      java.util.Set<Path> seen = new java.util.HashSet<>();
      for (String line : lines) {
        int slash = line.indexOf('/');
        if (slash < 0) {
          continue;
        }
        Path p = Path.of(line.substring(slash).trim());
        String name = p.getFileName().toString();
        if (name.startsWith(prefix) && name.endsWith(".so") && tmp.equals(p.getParent()) && seen.add(p)) {
          if (Files.deleteIfExists(p)) {
            n++;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // best effort: a library file left in the temporary directory is waste, not an error
    }
    return n;
  }

  /** Deletes {@code prefix*.so} files in the temporary directory older than {@code age} (left by killed processes). */
  public static int sweepStale(String prefix, Duration age) {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    long cutoff = System.currentTimeMillis() - age.toMillis();
    int n = 0;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(tmp, prefix + "*.so")) {
      for (Path p : ds) {
        try {
          if (Files.getLastModifiedTime(p).toMillis() < cutoff && Files.deleteIfExists(p)) {
            n++;
          }
        } catch (IOException e) {
          // another user's file, or gone already
        }
      }
    } catch (IOException | RuntimeException e) {
      // no temporary directory listing: nothing to sweep
    }
    return n;
  }
}
