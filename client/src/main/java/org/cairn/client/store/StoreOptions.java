package org.cairn.client.store;

import java.time.Duration;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.manifest.Manifest;

/**
 * What to store and how. {@code crypto}: the app key's sealing ({@link ChunkCrypto#PLAIN} stores
 * plaintext; the library's shorter constructors do, while {@code cairn store} encrypts by default).
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

  public StoreOptions {
    java.util.Objects.requireNonNull(crypto, "crypto");
    java.util.Objects.requireNonNull(chunking, "chunking");
    hostWait = hostWait == null ? DEFAULT_HOST_WAIT : hostWait;
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
