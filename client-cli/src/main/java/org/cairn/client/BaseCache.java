package org.cairn.client;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.cairn.core.hash.ChunkId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Plaintext of chunks this compute host stored plainly with a memory address (the chunks the next
 * checkpoint's chunks are coded against), so a store finds its bases on local disk instead of
 * reading them back from the donors: a job that checkpoints on one host never reads a base over
 * the network. One file per chunk, named by its id (the chunk's bytes, then their CRC32C), under a
 * directory only its user can read (the host already holds the checkpoints' plaintext). A file is
 * written only from the bytes whose id the store computed, and used only if its CRC32C holds, so a
 * damaged file is a miss, never a wrong base (checking the id again would cost a hash of every base).
 * Bounded: past the budget the oldest files go, checked when a process first uses the cache and
 * after every eighth of the budget it writes.
 *
 * Where: -Dcairn.baseCache, else $CAIRN_BASE_CACHE, else $XDG_CACHE_HOME/cairn/bases, else
 * ~/.cache/cairn/bases; "off" disables it. Budget: -Dcairn.baseCacheBytes (default 4 GiB).
 */
final class BaseCache {
  private static final Logger LOG = LoggerFactory.getLogger(BaseCache.class);
  static final long DEFAULT_BUDGET = 4L << 30;

  private final Path dir;
  private final long budget;
  private final AtomicLong written = new AtomicLong();

  BaseCache(Path dir, long budget) {
    this.dir = dir;
    this.budget = budget;
  }

  /** The cache this process uses, or null when it is off; its directory is made when the first chunk is kept. */
  static BaseCache standard() {
    String where = System.getProperty("cairn.baseCache", System.getenv("CAIRN_BASE_CACHE"));
    if ("off".equals(where)) {
      return null;
    }
    Path dir;
    if (where != null && !where.isBlank()) {
      dir = Path.of(where);
    } else {
      String xdg = System.getenv("XDG_CACHE_HOME");
      dir = (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache")).resolve("cairn")
          .resolve("bases");
    }
    BaseCache cache = new BaseCache(dir, Long.getLong("cairn.baseCacheBytes", DEFAULT_BUDGET));
    if (Files.isDirectory(dir) && TRIMMED.add(dir.toAbsolutePath().normalize())) {
      cache.startupTrim = cache.trimInBackground();
    }
    return cache;
  }

  /**
   * Directories this process has trimmed once. A process trims after writing an eighth of the budget
   * itself, which a one-shot {@code cairn store} never does: without a trim when a process first uses
   * the cache, hosts storing without an agent grew it without bound (33 GB against a 4 GiB budget on
   * a benchmark machine).
   */
  private static final java.util.Set<Path> TRIMMED = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** The trim {@link #standard} started (null if none); tests wait for it. */
  volatile Thread startupTrim;

  /** Trims on a daemon thread, off the store's path (a process that exits first leaves the rest to the next). */
  Thread trimInBackground() {
    Thread t = new Thread(this::trim, "cairn-base-cache-trim");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Makes the directory, readable by this user only, if it is not there yet. */
  private void ensureDir() throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir.getParent());
      try {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (java.nio.file.FileAlreadyExistsException e) {
        // another store made it meanwhile
      }
    }
  }

  /** The chunk's plaintext if an intact file of it is here; null otherwise. */
  byte[] get(ChunkId id) {
    Path f = dir.resolve(id.hex());
    try {
      byte[] file = Files.readAllBytes(f);
      if (file.length >= 4) {
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 4);
        if ((int) crc.getValue() == java.nio.ByteBuffer.wrap(file, file.length - 4, 4).getInt()) {
          return java.util.Arrays.copyOf(file, file.length - 4);
        }
      }
      Files.deleteIfExists(f); // damaged: never a base
    } catch (IOException e) {
      // a miss
    }
    return null;
  }

  /** Keeps {@code data[0, length)} as chunk {@code id}; failures only cost a later read from the grid. */
  void put(ChunkId id, byte[] data, int length) {
    Path f = dir.resolve(id.hex());
    if (Files.exists(f)) {
      return;
    }
    Path tmp = dir.resolve(id.hex() + ".tmp-" + java.util.UUID.randomUUID());
    try {
      ensureDir();
      byte[] file = java.util.Arrays.copyOf(data, length + 4);
      CRC32C crc = new CRC32C();
      crc.update(data, 0, length);
      java.nio.ByteBuffer.wrap(file, length, 4).putInt((int) crc.getValue());
      Files.write(tmp, file);
      try {
        Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
      }
      if (written.addAndGet(length) > budget / 8) {
        written.set(0);
        trim();
      }
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("base cache: {} not kept: {}", id.shortHex(), e.getMessage());
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // left for the next trim
      }
    }
  }

  /** Removes the oldest files until the cache is within its budget. */
  synchronized void trim() {
    List<Path> files = new ArrayList<>();
    long total = 0;
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        files.add(p);
      }
    } catch (IOException e) {
      return;
    }
    List<long[]> info = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      try {
        long size = Files.size(files.get(i));
        total += size;
        info.add(new long[] {Files.getLastModifiedTime(files.get(i)).toMillis(), size, i});
      } catch (IOException e) {
        // gone meanwhile
      }
    }
    info.sort(Comparator.comparingLong(a -> a[0]));
    for (long[] a : info) {
      if (total <= budget) {
        break;
      }
      try {
        Files.deleteIfExists(files.get((int) a[2]));
        total -= a[1];
      } catch (IOException e) {
        // try the next
      }
    }
  }
}
