package org.cairn.client;

import java.time.Duration;
import org.cairn.core.compress.Compressor;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.manifest.Manifest;

/**
 * What to store and how. {@code crypto}: the app key's sealing ({@link ChunkCrypto#PLAIN} stores
 * plaintext; the library's shorter constructors do, while {@code cairn store} encrypts by default).
 */
public record StoreOptions(String app, String node, long step, Redundancy redundancy, Compressor compressor, int chunkSize,
    int threads, String placement, String kind, String clientId, boolean optimistic, Duration probeAfter, Duration commitTimeout,
    ChunkCrypto crypto, Chunking chunking, Manifest.SetPart set, boolean soft, boolean delta) {
  /** A bandwidth measurement older than this is renewed with a probe before placing (FALCON §3.2.2). */
  public static final Duration DEFAULT_PROBE_AFTER = Duration.ofMinutes(10);
  /** How long a store keeps trying to commit while the tracker is unreachable (a restart) before it gives up. */
  public static final Duration DEFAULT_COMMIT_TIMEOUT = Duration.ofSeconds(30);

  public StoreOptions {
    java.util.Objects.requireNonNull(crypto, "crypto");
    java.util.Objects.requireNonNull(chunking, "chunking");
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
        commitTimeout, crypto, chunking, set, soft, delta);
  }

  /**
   * These options with chunks of memory coded against the previous version's chunk at the same
   * address ({@code true}, the default) or never.
   */
  public StoreOptions withDelta(boolean delta) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta);
  }

  /**
   * These options with soft writes (the two-level scheme's soft level): peers acknowledge pieces
   * before they are durable and make them durable in the background; the version's status is
   * {@code soft} until the tracker hears they are.
   */
  public StoreOptions withSoft(boolean soft) {
    return new StoreOptions(app, node, step, redundancy, compressor, chunkSize, threads, placement, kind, clientId, optimistic, probeAfter,
        commitTimeout, crypto, chunking, set, soft, delta);
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
