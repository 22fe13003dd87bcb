package org.cairn.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 * the network. Chunks are appended to pack files (each process writes its own, a new one every
 * PACK_BYTES), as records
 *
 *   offset size field
 *    0     4   magic "CRNB"
 *    4    32   chunk id
 *   36     4   length n (big-endian)
 *   40     n   the chunk's bytes
 *   40+n   4   CRC32C of bytes 0 .. 40+n
 *
 * under a directory only its user can read (the host already holds the checkpoints' plaintext). A
 * process indexes the packs' record headers when it first needs a base (and again on a miss, at most
 * once a second, to find what other processes wrote meanwhile). A record is written only from the
 * bytes whose id the store computed, and used only if its CRC32C holds, so a damaged or torn record
 * is a miss, never a wrong base (checking the id again would cost a hash of every base). Until
 * 2026-11-26 each chunk was a file of its own: creating them (inode allocation in a directory of
 * recently deleted files) cost more than writing their bytes; such files are removed by the trim.
 * Bounded: past the budget the oldest packs go, checked when a process first uses the cache and
 * after every eighth of the budget it writes.
 *
 * Where: -Dcairn.baseCache, else $CAIRN_BASE_CACHE, else $XDG_CACHE_HOME/cairn/bases, else
 * ~/.cache/cairn/bases; "off" disables it. Budget: -Dcairn.baseCacheBytes (default 4 GiB).
 */
final class BaseCache {
  private static final Logger LOG = LoggerFactory.getLogger(BaseCache.class);
  static final long DEFAULT_BUDGET = 4L << 30;
  /** A writer starts a new pack past this size, so the trim drops the oldest bytes in steps of at most this much. */
  static final long PACK_BYTES = 64L << 20;
  static final String PACK_SUFFIX = ".pack";
  private static final int MAGIC = 0x43524E42; // "CRNB"
  /**
   * A pack's name (when it was started, by which process, a random tag). The trim removes nothing
   * else but the earlier layout's files, so a cache pointed at a directory by mistake loses nothing.
   */
  private static final java.util.regex.Pattern PACK_NAME = java.util.regex.Pattern.compile("\\d+-\\d+-[0-9a-f]+\\.pack");
  /** A file of the one-file-per-chunk layout (a chunk id, or one being written). */
  private static final java.util.regex.Pattern LEGACY_NAME = java.util.regex.Pattern.compile("[0-9a-f]{64}(\\.tmp-[0-9a-f-]+)?");
  private static final int HEAD = 4 + ChunkId.LENGTH + 4;
  private static final int MAX_CHUNK = 256 << 20;

  private final Path dir;
  private final long budget;
  private final AtomicLong written = new AtomicLong();
  /** Where each indexed chunk's bytes are. */
  private final Map<ChunkId, Location> index = new ConcurrentHashMap<>();
  /** How far each pack has been indexed (a pack another process is writing grows). */
  private final Map<Path, Long> indexed = new ConcurrentHashMap<>();
  private volatile long lastScan = Long.MIN_VALUE;
  /** This process's pack being written, and where its next record goes (guarded by this). */
  private FileChannel pack;
  private Path packPath;
  private long packEnd;

  private record Location(Path pack, long offset, int length) {}

  BaseCache(Path dir, long budget) {
    this.dir = dir;
    this.budget = budget;
  }

  /**
   * The cache this process uses (the same one for every store and fetch of the process), or null when
   * it is off; its directory is made when the first chunk is kept.
   */
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
    long budget = Long.getLong("cairn.baseCacheBytes", DEFAULT_BUDGET);
    Path key = dir.toAbsolutePath().normalize();
    return SHARED.compute(key, (k, had) -> {
      if (had != null && had.budget == budget) {
        return had;
      }
      BaseCache cache = new BaseCache(dir, budget);
      if (Files.isDirectory(dir) && TRIMMED.add(k)) {
        cache.startupTrim = cache.trimInBackground();
      }
      return cache;
    });
  }

  /**
   * Directories this process has trimmed once. A process trims after writing an eighth of the budget
   * itself, which a one-shot {@code cairn store} never does: without a trim when a process first uses
   * the cache, hosts storing without an agent grew it without bound (33 GB against a 4 GiB budget on
   * a benchmark machine).
   */
  private static final java.util.Set<Path> TRIMMED = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** One cache per directory in a process (an agent's stores and fetches share its index and its pack). */
  private static final Map<Path, BaseCache> SHARED = new ConcurrentHashMap<>();
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

  /** The chunk's plaintext if an intact record of it is here; null otherwise. */
  byte[] get(ChunkId id) {
    Location at = index.get(id);
    if (at == null && scan()) {
      at = index.get(id);
    }
    if (at == null) {
      return null;
    }
    byte[] data = new byte[at.length()];
    ByteBuffer head = ByteBuffer.allocate(HEAD);
    ByteBuffer crc = ByteBuffer.allocate(4);
    try (FileChannel ch = FileChannel.open(at.pack(), StandardOpenOption.READ)) {
      ch.position(at.offset() - HEAD);
      ByteBuffer[] parts = {head, ByteBuffer.wrap(data), crc};
      long want = HEAD + data.length + 4L;
      for (long got = 0; got < want; ) {
        long n = ch.read(parts);
        if (n < 0) {
          break;
        }
        got += n;
      }
      if (!crc.hasRemaining() && head.getInt(0) == MAGIC && ChunkId.fromBytes(head.array(), 4).equals(id)
          && head.getInt(4 + ChunkId.LENGTH) == data.length) {
        CRC32C c = new CRC32C();
        c.update(head.array(), 0, HEAD);
        c.update(data, 0, data.length);
        if ((int) c.getValue() == crc.getInt(0)) {
          return data;
        }
      }
      index.remove(id, at); // damaged: never a base
    } catch (NoSuchFileException e) {
      forget(at.pack()); // trimmed by another process
    } catch (IOException | RuntimeException e) {
      index.remove(id, at); // a miss
    }
    return null;
  }

  /** Keeps {@code data[0, length)} as chunk {@code id}; failures only cost a later read from the grid. */
  void put(ChunkId id, byte[] data, int length) {
    if (lastScan == Long.MIN_VALUE) {
      scan(); // what earlier processes kept is not written again
    }
    if (index.containsKey(id)) {
      return;
    }
    ByteBuffer head = ByteBuffer.allocate(HEAD).putInt(MAGIC);
    id.copyTo(head.array(), 4);
    head.putInt(4 + ChunkId.LENGTH, length).position(0);
    CRC32C c = new CRC32C();
    c.update(head.array(), 0, HEAD);
    c.update(data, 0, length);
    ByteBuffer crc = ByteBuffer.allocate(4).putInt(0, (int) c.getValue());
    synchronized (this) {
      try {
        if (pack != null && !Files.exists(packPath)) {
          forget(packPath); // removed under this writer (another process's trim, a user's cleanup): its records are gone
          closePack();
        }
        if (pack == null || packEnd >= PACK_BYTES) {
          startPack();
        }
        long at = packEnd;
        ByteBuffer[] parts = {head, ByteBuffer.wrap(data, 0, length), crc};
        long want = HEAD + length + 4L;
        for (long put = 0; put < want; ) {
          put += pack.write(parts);
        }
        packEnd += want;
        indexed.put(packPath, packEnd);
        index.putIfAbsent(id, new Location(packPath, at + HEAD, length));
      } catch (IOException | UnsupportedOperationException e) {
        LOG.debug("base cache: {} not kept: {}", id.shortHex(), e.getMessage());
        closePack(); // the next chunk starts a new pack after whatever this one left
        return;
      }
    }
    if (written.addAndGet(length) > budget / 8) {
      written.set(0);
      trim();
    }
  }

  private void startPack() throws IOException {
    closePack();
    ensureDir();
    packPath = dir.resolve(System.currentTimeMillis() + "-" + ProcessHandle.current().pid() + "-"
        + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + PACK_SUFFIX);
    pack = FileChannel.open(packPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    packEnd = 0;
  }

  private void closePack() {
    if (pack != null) {
      try {
        pack.close();
      } catch (IOException e) {
        LOG.debug("base cache: closing {}: {}", packPath, e.getMessage());
      }
      pack = null;
    }
  }

  /**
   * Indexes what the packs hold beyond what was indexed before (at most once a second); true if it looked.
   * A record whose header is cut short or whose length runs past the pack's end stops the pack's
   * scan there (a writer may be appending it); a header without the magic ends it for good.
   */
  private boolean scan() {
    long now = System.nanoTime();
    if (lastScan != Long.MIN_VALUE && now - lastScan < 1_000_000_000L) {
      return false;
    }
    lastScan = now;
    List<Path> packs = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> PACK_NAME.matcher(p.getFileName().toString()).matches()).forEach(packs::add);
    } catch (IOException e) {
      return true;
    }
    ByteBuffer head = ByteBuffer.allocate(HEAD);
    for (Path p : packs) {
      long pos = indexed.getOrDefault(p, 0L);
      try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
        long size = ch.size();
        while (pos >= 0 && pos + HEAD + 4 <= size) {
          head.clear();
          while (head.hasRemaining() && ch.read(head, pos + head.position()) > 0) {
            // reads the header
          }
          int n = head.getInt(4 + ChunkId.LENGTH);
          if (head.hasRemaining() || head.getInt(0) != MAGIC || n < 0 || n > MAX_CHUNK) {
            pos = -1; // not a record: nothing after it is trusted
          } else if (pos + HEAD + n + 4 > size) {
            break;
          } else {
            index.putIfAbsent(ChunkId.fromBytes(head.array(), 4), new Location(p, pos + HEAD, n));
            pos += HEAD + n + 4;
          }
        }
        indexed.put(p, pos < 0 ? Long.MAX_VALUE : pos);
      } catch (IOException e) {
        forget(p);
      }
    }
    return true;
  }

  private void forget(Path pack) {
    indexed.remove(pack);
    index.values().removeIf(l -> l.pack().equals(pack));
  }

  /**
   * Removes the oldest packs until the cache is within its budget (never the one this process is
   * writing), and every file of the earlier one-file-per-chunk layout.
   */
  synchronized void trim() {
    List<Path> packs = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String name = p.getFileName().toString();
        if (PACK_NAME.matcher(name).matches()) {
          packs.add(p);
        } else if (LEGACY_NAME.matcher(name).matches()) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      return;
    }
    long total = 0;
    List<long[]> info = new ArrayList<>();
    for (int i = 0; i < packs.size(); i++) {
      try {
        long size = Files.size(packs.get(i));
        total += size;
        info.add(new long[] {Files.getLastModifiedTime(packs.get(i)).toMillis(), size, i});
      } catch (IOException e) {
        // gone meanwhile
      }
    }
    info.sort(Comparator.comparingLong(a -> a[0]));
    for (long[] a : info) {
      if (total <= budget) {
        break;
      }
      Path p = packs.get((int) a[2]);
      if (p.equals(packPath) && pack != null) {
        continue;
      }
      try {
        Files.deleteIfExists(p);
        forget(p);
        total -= a[1];
      } catch (IOException e) {
        // try the next
      }
    }
  }
}
