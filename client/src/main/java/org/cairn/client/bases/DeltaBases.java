package org.cairn.client.bases;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.StorePipeline;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.BaseReads;
import org.cairn.core.read.ChunkReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * The bases a store codes its new chunks against: for a chunk of memory at address A, the previous
 * version's chunk at A (or, when that one is itself coded against a base, that base: a chunk is
 * never more than one base away from its bytes, so a fetch reads at most two chunks for one). The
 * base is read from the grid through the read path like any chunk and checked against its id; one
 * that cannot be read leaves the chunk coded plainly. Bases are looked for first in the host's
 * BaseCache, which every chunk of memory coded plainly, and every base read, goes into. Only
 * versions sealed with the same key (or both plaintext) pair up, since chunk ids are the key's.
 */
public final class DeltaBases implements StorePipeline.BaseSource {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaBases.class);

  /** Where the previous version is found. */
  public interface Previous {
    /**
     * The latest version with each chunk's coding and base, its holders left out (null if there is none); asked once,
     * when the first chunk of memory comes.
     */
    LocatedVersion codings() throws java.io.IOException;

    /** Version {@code step} in full (holders and READ tickets), asked only if a base must be read from the grid. */
    LocatedVersion located(long step) throws java.io.IOException;

    /** App/node's previous version as {@code tracker} has it. */
    static Previous of(org.cairn.core.api.TrackerClient tracker, String app, String node) {
      return of(tracker, app, node, -1);
    }

    /**
     * App/node's previous version as {@code tracker} has it; for part {@code part} of a checkpoint set (-1: a plain
     * version), the same part of the latest set's version, so each host's part is coded against its own previous part (a
     * latest version that has no such part is none: the chunks are coded on their own).
     */
    static Previous of(org.cairn.core.api.TrackerClient tracker, String app, String node, int part) {
      return new Previous() {
        @Override
        public LocatedVersion codings() throws java.io.IOException {
          return tracker.latestCodings(app, node, part);
        }

        @Override
        public LocatedVersion located(long step) throws java.io.IOException {
          return tracker.locate(app, node, step, part);
        }
      };
    }
  }

  private final Previous previous;
  private final BaseCache cache;
  private final ChunkCrypto crypto;
  private final PeerClient peers;
  private final ScheduledExecutorService timer;
  /** Where the previous version is looked up (the store's I/O threads). */
  private final java.util.concurrent.Executor lookup;
  /** Where the chunks coded plainly wait until the store has answered; null: written as they come. */
  private final HeldRecords.Later later;
  private final Map<ChunkId, ChunkId> given = new ConcurrentHashMap<>();
  private final AtomicLong unreadable = new AtomicLong();
  /** The previous version's chunks by address, asked for when the first chunk of memory comes (null until then). */
  private CompletableFuture<Map<Long, ChunkId>> keys;
  /** Set before {@link #keys} completes (so seen by whatever runs after it). */
  private BaseReads reads;
  /** Guards {@link #located} (not this object: {@link #keys} must not wait behind a tracker call). */
  private final Object locating = new Object();
  /** The previous version in full, once a base had to be read from the grid (guarded by {@link #locating}). */
  private LocatedVersion located;

  /**
   * Bases of {@code previous}'s chunks, found in {@code cache} (null: none) or read from the grid.
   *
   * @param lookup where the previous version is looked up (off the store's workers)
   * @param holdUntilAnswered keep the chunks coded plainly in memory until {@link #answered} (a
   *     resident agent's stores), instead of writing them to the cache as they come
   */
  public DeltaBases(Previous previous, BaseCache cache, ChunkCrypto crypto, PeerClient peers, ScheduledExecutorService timer,
      java.util.concurrent.Executor lookup, boolean holdUntilAnswered) {
    this.previous = previous;
    this.cache = cache;
    this.crypto = crypto;
    this.peers = peers;
    this.timer = timer;
    this.lookup = lookup;
    this.later = holdUntilAnswered && cache != null ? cache.later() : null;
  }

  /** The store has answered: the chunks held back go to the cache on {@code executor}. */
  public void answered(java.util.concurrent.Executor executor) {
    if (later != null) {
      later.writeOn(executor);
    }
  }

  /** The store failed: the chunks held back are forgotten. */
  public void failed() {
    if (later != null) {
      later.drop();
    }
  }

  /**
   * The previous version's chunks by address (empty when it cannot serve), looked up on the store's I/O
   * threads when first asked for: the store's workers go on hashing the next chunks meanwhile, and the chunks
   * of memory wait for it (a one-command store spent ~0.1 s on it in a young JVM before its first base).
   */
  private synchronized CompletableFuture<Map<Long, ChunkId>> keys() {
    if (keys == null) {
      keys = CompletableFuture.supplyAsync(() -> {
        try {
          LocatedVersion v = previous.codings();
          return v == null ? Map.<Long, ChunkId>of() : index(v);
        } catch (java.io.IOException | RuntimeException e) {
          LOG.debug("no previous version to code against: {}", e.getMessage());
          return Map.<Long, ChunkId>of();
        }
      }, lookup);
    }
    return keys;
  }

  private Map<Long, ChunkId> index(LocatedVersion previous) {
    if (!java.util.Objects.equals(previous.manifest().keyId(), crypto.fingerprint())) {
      return Map.of(); // sealed with another key (or one of them plaintext): its ids are not this store's
    }
    Map<Long, ChunkId> keys = new HashMap<>();
    for (ChunkRef ref : previous.manifest().chunks()) {
      if (ref.addr() != null) {
        LocatedChunk c = previous.chunk(ref.id());
        keys.put(ref.addr(), c.baseId() != null ? c.baseId() : ref.id());
      }
    }
    if (!keys.isEmpty()) {
      // m pieces per base, data pieces first (nothing to decode), one more per failure: a store reads no more than it must
      ChunkReader reader = new ChunkReader(ChunkReader.PieceSource.of(peers), ChunkReader.Mode.FIRST_M, peers.timeout().multipliedBy(6),
          timer, new BadPieceLog());
      long step = previous.manifest().step();
      reads = new BaseReads(reader, id -> holders(step, id), crypto);
      if (cache != null) {
        reads.withLocal(base -> cache.get(base, crypto));
      }
    }
    return keys;
  }

  /**
   * Base {@code id} with its holders, for a read from the grid: the previous version located in full the first time (its
   * READ tickets presented then). A version that cannot be located leaves the base without holders: a failed read, and
   * the chunk coded plainly.
   */
  private LocatedChunk holders(long step, ChunkId id) {
    synchronized (locating) {
      if (located == null) {
        try {
          located = previous.located(step);
          org.cairn.core.read.Tickets.present(peers, located.tickets()); // READ tickets for the previous version's holders
        } catch (java.io.IOException | RuntimeException e) {
          LOG.debug("previous version {} not located: {}", step, e.getMessage());
          located = new LocatedVersion(null, Map.of());
        }
      }
      return located.chunk(id);
    }
  }

  @Override
  public CompletableFuture<ChunkCodec.Base> baseFor(ChunkId id, long address, int length) {
    return keys().thenCompose(keys -> {
      ChunkId key = keys.get(address);
      return key == null || key.equals(id) ? CompletableFuture.completedFuture(null) : read(id, key);
    });
  }

  private CompletableFuture<ChunkCodec.Base> read(ChunkId id, ChunkId key) {
    return reads.readOnce(key).handle((data, e) -> {
      if (e != null) {
        if (unreadable.getAndIncrement() == 0) {
          LOG.info("base {} not read ({}): chunks without a readable base are coded plainly", key.shortHex(), e.getMessage());
        }
        return null;
      }
      given.put(id, key);
      if (cache != null) {
        cache.put(key, data, data.length); // read from the grid: the next store finds it here (kept already: nothing done)
      }
      return new ChunkCodec.Base(key, data);
    });
  }

  @Override
  public void codedPlainly(ChunkId id, long address, byte[] data, int length, org.cairn.core.fragment.Fragment[] fragments) {
    if (cache != null) {
      cache.putCoded(id, fragments, later);
    }
  }

  /** The base chunk {@code id} was offered (whether the codec used it is in its fragments' compression). */
  public ChunkId baseOf(ChunkId id) {
    return given.get(id);
  }
}
