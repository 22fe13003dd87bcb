package org.cairn.client.store;

import java.time.Duration;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.manifest.Manifest;

/**
 * What to store and how: one typed, validated value (the compact constructor refuses what no store can
 * run with, naming the field), with its defaults here ({@link #defaults}). {@code crypto}: the app key's
 * sealing ({@link ChunkCrypto#PLAIN} stores plaintext; the library's shorter constructors do, while
 * {@code cairn store} encrypts by default). {@code probeAfter} null: never probe; {@code set} null: a
 * plain version; {@code step} 0: the node's next step.
 */
public record StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize,
    int threads, String placement, String kind, String clientId, boolean optimistic, Duration probeAfter, Duration commitTimeout,
    ChunkCrypto crypto, Chunking chunking, Manifest.SetPart set, boolean soft, boolean delta, Duration hostWait) {
  /** A bandwidth measurement older than this is renewed with a probe before placing (FALCON §3.2.2). */
  public static final Duration DEFAULT_PROBE_AFTER = Duration.ofMinutes(10);
  /** How long a store keeps trying to commit while the tracker is unreachable (a restart) before it gives up. */
  public static final Duration DEFAULT_COMMIT_TIMEOUT = Duration.ofSeconds(30);
  /**
   * How long a store waits for enough hosts to accept writes when the grid has them but some are BUSY or
   * FULL now (FALCON's transient states) before it fails.
   */
  public static final Duration DEFAULT_HOST_WAIT = Duration.ofSeconds(60);
  /** FALCON's placement, the default. */
  public static final String DEFAULT_PLACEMENT = "falcon";
  /** The chunk size stores use unless told otherwise ({@link ChunkSize#DEFAULT}). */
  public static final int DEFAULT_CHUNK_SIZE = ChunkSize.DEFAULT;
  /** The most worker threads one store runs. */
  public static final int MAX_THREADS = 256;
  /** {@link #writeMode()}: every piece durable before success. */
  public static final String PESSIMISTIC = "pessimistic";
  /** {@link #writeMode()}: success once the m data pieces are durable. */
  public static final String OPTIMISTIC = "optimistic";
  /** {@link #writeMode()}: success once every piece is in its peer's memory. */
  public static final String SOFT = "soft";

  /** @throws IllegalArgumentException naming the first field no store can run with */
  public StoreOptions {
    java.util.Objects.requireNonNull(crypto, "crypto");
    java.util.Objects.requireNonNull(chunking, "chunking");
    hostWait = hostWait == null ? DEFAULT_HOST_WAIT : hostWait;
    require(app != null && !app.isBlank(), "a store needs an app");
    require(node != null && !node.isBlank(), "a store needs a node");
    require(step >= 0, "step must be 0 (the next) or more, was " + step);
    require(redundancy != null, "a store needs a redundancy");
    require(compressor != null, "a store needs a compression");
    require(chunkSize > 0, "chunk size must be positive, was " + chunkSize);
    require(threads >= 1 && threads <= MAX_THREADS, "threads must be between 1 and " + MAX_THREADS + ", was " + threads);
    require(placement != null && !placement.isBlank(), "a store needs a placement");
    require(kind != null && !kind.isBlank(), "a store needs a kind");
    require(probeAfter == null || !probeAfter.isNegative(), "probe-after must not be negative, was " + probeAfter);
    require(commitTimeout != null && !commitTimeout.isNegative(), "commit timeout must not be negative, was " + commitTimeout);
    require(!hostWait.isNegative(), "host wait must not be negative, was " + hostWait);
    require(set == null || step == 0, "a part of a checkpoint set takes no step: the tracker numbers the set's version");
    require(!(soft && optimistic), "a write is soft or optimistic, not both");
  }

  private static void require(boolean ok, String what) {
    if (!ok) {
      throw new IllegalArgumentException(what);
    }
  }

  /**
   * The defaults every store starts from: the node's next step, {@link Redundancy#DEFAULT_SPEC},
   * {@link Compressor#DEFAULT_SPEC}, {@link #DEFAULT_CHUNK_SIZE}, one thread per core, {@link #DEFAULT_PLACEMENT},
   * pessimistic writes, {@link #DEFAULT_PROBE_AFTER}, {@link #DEFAULT_COMMIT_TIMEOUT}, {@link Chunking#DEFAULT},
   * delta on, {@link #DEFAULT_HOST_WAIT}.
   */
  public static StoreOptions defaults(String app, String node, String kind, String clientId, ChunkCrypto crypto) {
    return new StoreOptions(app, node, 0, Redundancy.parse(Redundancy.DEFAULT_SPEC), Compressor.parse(Compressor.DEFAULT_SPEC),
        DEFAULT_CHUNK_SIZE, Runtime.getRuntime().availableProcessors(), DEFAULT_PLACEMENT, kind, clientId, false, DEFAULT_PROBE_AFTER,
        DEFAULT_COMMIT_TIMEOUT, crypto, Chunking.DEFAULT, null, false, true, DEFAULT_HOST_WAIT);
  }

  /** {@link #PESSIMISTIC}, {@link #OPTIMISTIC} or {@link #SOFT}. */
  public String writeMode() {
    return soft ? SOFT : optimistic ? OPTIMISTIC : PESSIMISTIC;
  }

  /** These options with write mode {@code mode} ({@link #writeMode()}'s names). */
  public StoreOptions withWriteMode(String mode) {
    require(PESSIMISTIC.equals(mode) || OPTIMISTIC.equals(mode) || SOFT.equals(mode),
        "write must be pessimistic, optimistic or soft, was '" + mode + "'");
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, OPTIMISTIC.equals(mode),
        probeAfter, commitTimeout, crypto, chunking, set, SOFT.equals(mode), delta, hostWait);
  }

  /** These options for step {@code step} of {@code node}, a {@code kind} version. */
  public StoreOptions forVersion(String node, long step, String kind) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  /** These options with {@code redundancy} and {@code compressor}. */
  public StoreOptions withCoding(Redundancy redundancy, Compressor compressor) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  /** These options with chunks of {@code chunkSize} bytes cut by {@code chunking}. */
  public StoreOptions withChunks(int chunkSize, Chunking chunking) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  /** These options with {@code threads} workers placing by {@code placement}. */
  public StoreOptions withPlacement(String placement, int threads) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  /** These options with the bandwidth probe age (null: never probe) and the commit timeout. */
  public StoreOptions withTimeouts(Duration probeAfter, Duration commitTimeout) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  /** These options sealed by {@code crypto} (an app key's, or {@link ChunkCrypto#PLAIN}). */
  public StoreOptions withCrypto(ChunkCrypto crypto) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  public StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
      String placement, String kind, String clientId, boolean optimistic, Duration probeAfter, Duration commitTimeout,
      ChunkCrypto crypto, Chunking chunking, Manifest.SetPart set, boolean soft, boolean delta) {
    this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter, commitTimeout,
        crypto, chunking, set, soft, delta, DEFAULT_HOST_WAIT);
  }

  /** These options with {@code hostWait} as the longest wait for BUSY or FULL hosts to accept writes again (0: none). */
  public StoreOptions withHostWait(Duration hostWait) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  public StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
      String placement, String kind, String clientId, boolean optimistic, Duration probeAfter, Duration commitTimeout,
      ChunkCrypto crypto, Chunking chunking) {
    this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter, commitTimeout,
        crypto, chunking, null, false, true);
  }

  /** These options for part {@code set.part()} of checkpoint set {@code set.name()}. */
  public StoreOptions withSet(Manifest.SetPart set) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  /**
   * These options with chunks of memory coded against the previous version's chunk at the same
   * address ({@code true}, the default) or never.
   */
  public StoreOptions withDelta(boolean delta) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  /**
   * These options with soft writes (the two-level scheme's soft level): peers acknowledge pieces
   * before they are durable and make them durable in the background; the version's status is
   * {@code soft} until the tracker hears they are.
   */
  public StoreOptions withSoft(boolean soft) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta, hostWait);
  }

  public StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
      String placement, String kind, String clientId, boolean optimistic, Duration probeAfter, Duration commitTimeout,
      ChunkCrypto crypto) {
    this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter, commitTimeout,
        crypto, Chunking.DEFAULT);
  }

  public StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
      String placement, String kind, String clientId, boolean optimistic, Duration probeAfter, Duration commitTimeout) {
    this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter, commitTimeout,
        ChunkCrypto.PLAIN);
  }

  public StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
      String placement, String kind, String clientId, boolean optimistic, Duration probeAfter) {
    this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        DEFAULT_COMMIT_TIMEOUT);
  }

  public StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
      String placement, String kind, String clientId, boolean optimistic) {
    this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, DEFAULT_PROBE_AFTER);
  }

  public StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize, int threads,
      String placement, String kind, String clientId) {
    this(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, false);
  }
}
