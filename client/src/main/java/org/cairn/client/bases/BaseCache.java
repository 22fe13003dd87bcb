package org.cairn.client.bases;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkDecoder;
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
 *    0     4   magic: "CRNB" the chunk's plaintext follows, "CRNC" its coded payload
 *    4    32   chunk id
 *   36     4   length n (big-endian)
 *   40     n   CRNB: the chunk's bytes; CRNC: compression id (1), encryption id (1), chunk length (4),
 *              then the payload as its pieces carry it (compressed, sealed when the app encrypts)
 *   40+n   4   CRC32C of bytes 0 .. 40+n
 *
 * under a directory only its user can read (the host already holds the checkpoints' plaintext); the
 * packs are {@link BasePacks}. A store keeps the chunks it coded plainly as coded records (40 % of
 * their plaintext for memory images: the kernel's copy into the page cache was most of a record's
 * cost), opened with the app's key (the AEAD tag, over the id, proves them) and decompressed when
 * read; a base read from the grid is kept as plaintext. A record is written only from the bytes
 * whose id the store computed, and used only if its CRC32C holds, so a damaged or torn record is a
 * miss, never a wrong base (checking the id again would cost a hash of every base). Until
 * 2026-11-26 each chunk was a file of its own: creating them (inode allocation in a directory of
 * recently deleted files) cost more than writing their bytes; such files are removed by the trim.
 * Bounded: past the budget the oldest packs go, checked when a process first uses the cache (after
 * indexing it, on a thread of its own) and after every eighth of the budget it writes.
 *
 * Where: ClientTuning.baseCache (-Dcairn.baseCache), else $CAIRN_BASE_CACHE, else $XDG_CACHE_HOME/cairn/bases, else
 * ~/.cache/cairn/bases; "off" disables it. Budget: ClientTuning.baseCacheBytes (-Dcairn.baseCacheBytes, default 4 GiB).
 */
public final class BaseCache {
  private static final Logger LOG = LoggerFactory.getLogger(BaseCache.class);
  private static final int MAGIC = 0x43524E42; // "CRNB": a plaintext record
  private static final int MAGIC_CODED = 0x43524E43; // "CRNC": a coded record (compressed, maybe sealed)
  /** The record kinds in this cache's packs. */
  static final java.util.Set<Integer> RECORD_KINDS = java.util.Set.of(MAGIC, MAGIC_CODED);
  /** A coded record's bytes before its payload: compression id, encryption id, chunk length. */
  private static final int CODED_HEAD = 1 + 1 + 4;

  private final long budget;
  private final BasePacks packs;
  /** Records held in memory until their store has answered. */
  private final HeldRecords held;

  BaseCache(Path dir, long budget) {
    this(dir, budget, ClientTuning.defaults().heldBaseBytes());
  }

  /** @param heldBudget bytes of records held in memory at most ({@link ClientTuning#heldBaseBytes}) */
  BaseCache(Path dir, long budget, long heldBudget) {
    this.budget = budget;
    this.packs = new BasePacks(dir, budget, RECORD_KINDS);
    this.held = new HeldRecords(heldBudget,
        (id, r) -> packs.append(MAGIC_CODED, id, ByteBuffer.wrap(r.meta()), ByteBuffer.wrap(r.payload())));
  }

  /**
   * The cache this process uses (the same one for every store and fetch of the process), or null when
   * it is off; its directory is made when the first chunk is kept.
   */
  public static BaseCache standard() {
    return standard(ClientTuning.fromSystemProperties());
  }

  /**
   * The cache this process uses where {@code tuning} puts it ({@link ClientTuning#baseCache}, null: $CAIRN_BASE_CACHE,
   * else the user's cache directory), with its budgets; null when it is off. One cache per directory in a process.
   */
  public static BaseCache standard(ClientTuning tuning) {
    String where = tuning.baseCache() != null ? tuning.baseCache() : System.getenv("CAIRN_BASE_CACHE");
    if ("off".equals(where)) {
      return null;
    }
    Path dir;
    if (where != null && !where.isBlank()) {
      dir = Path.of(where);
    } else {
      dir = org.cairn.core.util.UserCache.dir().resolve("bases");
    }
    long budget = tuning.baseCacheBytes();
    Path key = dir.toAbsolutePath().normalize();
    return SHARED.compute(key, (k, had) -> {
      if (had != null && had.budget == budget) {
        return had;
      }
      BaseCache cache = new BaseCache(dir, budget, tuning.heldBaseBytes());
      if (Files.isDirectory(dir) && TRIMMED.add(k)) {
        cache.startup = cache.packs.indexAhead(cache::trim);
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
  /**
   * The thread {@link #standard} started when a process first used the directory (null if none): it
   * indexes the packs, which the first read waits for (a store starts it before its placement, so the
   * index is made meanwhile), then trims them, off the store's path (a process that exits first leaves
   * the rest of the trim to the next). Tests wait for it.
   */
  volatile Thread startup;

  /**
   * The chunk's plaintext if an intact record of it is here; null otherwise. A coded record is opened
   * with {@code crypto} (its AEAD tag shows it was sealed with the app's key) and decompressed; a fetch
   * still checks what it gets against the chunk's keyed id.
   */
  public byte[] get(ChunkId id, ChunkCrypto crypto) {
    try {
      HeldRecords.Held h = held.get(id);
      if (h != null) {
        return open(id, h.meta(), h.payload(), 0, crypto);
      }
      BasePacks.Found found = packs.read(id);
      if (found == null) {
        return null;
      }
      if (found.magic() == MAGIC) {
        return found.data();
      }
      if (found.data().length < CODED_HEAD) {
        throw new CorruptDataException("coded record of " + found.data().length + " bytes");
      }
      return open(id, found.data(), found.data(), CODED_HEAD, crypto);
    } catch (CorruptDataException | RuntimeException e) {
      return null; // not this caller's key (the record stays for its own app), or damaged past its CRC
    }
  }

  /**
   * A coded record's plaintext: {@code meta} holds its compression id, encryption id and chunk length,
   * {@code payload} from {@code from} on the coded payload.
   */
  private static byte[] open(ChunkId id, byte[] meta, byte[] payload, int from, ChunkCrypto crypto)
      throws CorruptDataException {
    CompressionType compression = CompressionType.fromId(meta[0]);
    Encryption encryption = Encryption.fromId(meta[1]);
    int length = ByteBuffer.wrap(meta, 2, 4).getInt();
    if (compression.delta() || length < 0 || length > BasePacks.MAX_CHUNK) {
      throw new CorruptDataException("coded record of chunk " + id.shortHex() + " is not a plain chunk");
    }
    if (!encryption.encrypted()) {
      return compression.decompress(payload, from, payload.length - from, length);
    }
    if (crypto == null || crypto.encryption() != encryption) {
      throw new CorruptDataException("chunk " + id.shortHex() + " is sealed with another key or scheme");
    }
    byte[] plain = crypto.open(id, from == 0 ? payload : java.util.Arrays.copyOfRange(payload, from, payload.length));
    // a fetch still checks it against its keyed id like any chunk (a seal proves who sealed the bytes
    // under that id, not that the id was computed from them)
    return compression.decompress(plain, 0, plain.length, length);
  }

  /** Whether a record of chunk {@code id} is indexed here (no I/O once the packs are indexed). */
  public boolean holds(ChunkId id) {
    return held.contains(id) || packs.known(id);
  }

  /** Keeps {@code data[0, length)} as chunk {@code id}; failures only cost a later read from the grid. */
  void put(ChunkId id, byte[] data, int length) {
    if (packs.known(id)) {
      return;
    }
    packs.append(MAGIC, id, ByteBuffer.wrap(data, 0, length));
  }

  /**
   * Keeps chunk {@code id} as its coded payload (compressed, sealed when the app encrypts: for memory
   * images 40 % of the plaintext, and the kernel's copy into the page cache is most of what a record
   * costs), rebuilt from {@code fragments}, the chunk's pieces as a store made them.
   */
  void putCoded(ChunkId id, Fragment[] fragments) {
    putCoded(id, fragments, null);
  }

  /**
   * As {@link #putCoded(ChunkId, Fragment[])}; with {@code later}, the record is held in memory (found
   * by {@link #find} meanwhile) until {@code later} is written, unless the cache already holds as many
   * bytes in memory as it may: then it is written now.
   */
  void putCoded(ChunkId id, Fragment[] fragments, HeldRecords.Later later) {
    if (held.contains(id) || packs.known(id)) {
      return;
    }
    Fragment first = null;
    for (Fragment f : fragments) {
      if (f != null) {
        first = f;
        break;
      }
    }
    if (first == null || first.compression().delta()) {
      return;
    }
    byte[] payload;
    try {
      payload = ChunkDecoder.codedPayload(id, fragments);
    } catch (CorruptDataException e) {
      LOG.debug("base cache: {} not kept: {}", id.shortHex(), e.getMessage());
      return;
    }
    byte[] meta = ByteBuffer.allocate(CODED_HEAD).put((byte) first.compression().id()).put((byte) first.encryption().id())
        .putInt(first.chunkLength()).array();
    if (later != null && later.hold(id, new HeldRecords.Held(meta, payload))) {
      return;
    }
    packs.append(MAGIC_CODED, id, ByteBuffer.wrap(meta), ByteBuffer.wrap(payload));
  }

  /** One store's share of the records held until it has answered ({@link HeldRecords}). */
  HeldRecords.Later later() {
    return held.later();
  }

  /** Bytes of records held in memory now (tests). */
  long heldBytes() {
    return held.bytes();
  }

  /** Removes the oldest packs until the cache is within its budget (see {@link BasePacks#trim}). */
  void trim() {
    packs.trim();
  }
}
