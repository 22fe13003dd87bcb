package org.cairn.client.fetch;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import org.cairn.client.bases.BaseCache;
import org.cairn.client.keys.AppKeys;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.FetchPipeline;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.ChunkReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Fetches a version (FALCON "Recover", §3.3): the manifest and each chunk's coding and holders come
 * from the tracker; each chunk's pieces are read by the ChunkReader (the read path verify and repair
 * share), rebuilt in parallel by the core fetch pipeline and written in order. Up to k dead, loaded
 * or slow holders per chunk neither fail nor wait the fetch. Bad pieces seen are reported at the end.
 */
public final class Fetcher {
  private static final Logger LOG = LoggerFactory.getLogger(Fetcher.class);

  /** Chunks fetched ahead of the writer are bounded by about this many bytes (pieces plus decoded chunks). */
  static final long IN_FLIGHT_BYTES = 64L << 20;

  /**
   * What a fetch did; {@code chunksFromThisHost}: distinct chunks read from this host's disk (its base
   * cache: chunks it stored or read before) rather than from the donors.
   */
  public record Result(String app, String node, long step, long size, String kind, double seconds, int chunksFromThisHost) {}

  /**
   * How to fetch: worker threads, how pieces are asked for, and chunks fetched ahead of the writer
   * (0: as many as fit in IN_FLIGHT_BYTES, at least 2 per thread).
   */
  public record Options(int threads, ChunkReader.Mode mode, int inFlightChunks) {
    public Options {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1, was " + threads);
      }
      if (mode == ChunkReader.Mode.EVERY) {
        throw new IllegalArgumentException("read mode must be all, first-m or hedged, was every");
      }
      if (inFlightChunks < 0 || inFlightChunks > 1024) {
        throw new IllegalArgumentException("chunks in flight must be 0 (auto) to 1024, was " + inFlightChunks);
      }
    }

    public static Options defaults() {
      return new Options(Runtime.getRuntime().availableProcessors(), ChunkReader.Mode.HEDGED, 0);
    }
  }

  private final TrackerClient tracker;
  private final PeerClient peers;
  private final ScheduledExecutorService timer;
  private final ClientTuning tuning;

  /** @param tuning where the host's cache of bases is, and whether bases are read from all holders */
  public Fetcher(TrackerClient tracker, PeerClient peers, ScheduledExecutorService timer, ClientTuning tuning) {
    this.tracker = tracker;
    this.peers = peers;
    this.timer = timer;
    this.tuning = java.util.Objects.requireNonNull(tuning, "tuning");
  }

  /** The version app/node/step (latest when step <= 0) with its chunks' coding and holders. */
  public LocatedVersion locate(String app, String node, long step) throws IOException {
    return tracker.locate(app, node, step);
  }

  /** Fetches a plaintext version (an encrypted one fails: it needs its app key). */
  public Result fetch(LocatedVersion located, Options o, OutputStream out) throws IOException {
    return fetch(located, o, out, ChunkCrypto.PLAIN);
  }

  /** Fetches a version, opening encrypted chunks with {@code crypto} (see {@link AppKeys#forVersion}). */
  public Result fetch(LocatedVersion located, Options o, OutputStream out, ChunkCrypto crypto) throws IOException {
    long start = System.nanoTime();
    Manifest manifest = located.manifest();
    org.cairn.core.read.Tickets.present(peers, located.tickets()); // READ tickets for each holder
    BadPieceLog bad = new BadPieceLog();
    Duration chunkTimeout = peers.timeout().multipliedBy(6);
    ChunkReader reader = new ChunkReader(ChunkReader.PieceSource.of(peers), o.mode(), chunkTimeout, timer, bad);
    try {
      int largest = 1;
      for (ChunkRef ref : manifest.chunks()) {
        largest = Math.max(largest, ref.length());
      }
      // chunks in flight: their pieces on the way plus decoded chunks waiting to be written stay near IN_FLIGHT_BYTES
      int window = o.inFlightChunks() > 0 ? o.inFlightChunks()
          : (int) Math.max(2L * o.threads(), Math.min(64, IN_FLIGHT_BYTES / (largest * 5L / 2)));
      // a base is read from m holders, hedged (not from all n: it doubles no request count), or found
      // on this host's disk when it stored or read it before (a restart where the job ran)
      ChunkReader baseReader = o.mode() == ChunkReader.Mode.ALL && !tuning.fetchBasesAll()
          ? new ChunkReader(ChunkReader.PieceSource.of(peers), ChunkReader.Mode.HEDGED, chunkTimeout, timer, bad) : reader;
      org.cairn.core.read.BaseReads bases = new org.cairn.core.read.BaseReads(baseReader, located::chunk, crypto);
      BaseCache cache = BaseCache.standard(tuning);
      if (cache != null) {
        bases.withLocal(base -> cache.get(base, crypto));
      }
      FetchPipeline pipeline = new FetchPipeline(o.threads(), window, FetchPipeline.REPEAT_CACHE_BYTES, crypto, bases);
      if (cache != null) {
        // a chunk this host stored or read before comes from its disk (checked against its id), the rest from the grid
        pipeline.withLocal(new FetchPipeline.LocalChunks() {
          @Override
          public byte[] find(ChunkRef ref) {
            return cache.get(ref.id(), crypto);
          }

          @Override
          public boolean mayHold(ChunkRef ref) {
            return cache.holds(ref.id()); // a miss goes to the donors without waiting for a worker
          }
        });
      }
      long size = pipeline.fetchAsync(manifest.chunks(), (index, ref) -> {
        // a chunk coded against a base goes to decoding once its base is read too, so no decoder waits for a read
        LocatedChunk chunk = located.chunk(ref.id());
        CompletableFuture<?> base = chunk.baseId() == null ? CompletableFuture.completedFuture(null)
            : bases.start(chunk.baseId()).handle((b, e) -> null);
        return reader.read(chunk).thenCombine(base, (pieces, b) -> pieces).thenApply(pieces -> {
            if (!pieces.enough()) {
              throw new CompletionException(new CorruptDataException(pieces.describe()));
            }
            if (!pieces.problems().isEmpty()) {
              LOG.info("chunk {}: {}", ref.id().shortHex(), String.join("; ", pieces.problems()));
            }
            return pieces.fragments();
          });
      }, out);
      LOG.debug("fetch {}.{}: {} chunks found on this host ({} there did not match their id); bases: {} found on this host, "
          + "{} read from the grid", manifest.app(), manifest.node(), pipeline.foundHere(), pipeline.refusedHere(),
          bases.foundHere(), bases.readFromGrid());
      return new Result(manifest.app(), manifest.node(), manifest.step(), size, manifest.kind(), (System.nanoTime() - start) / 1e9,
          pipeline.foundHere());
    } finally {
      bad.flush(tracker, "client fetch");
    }
  }
}
