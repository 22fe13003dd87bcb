package org.cairn.core.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.cairn.core.chunk.Chunk;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.chunk.Chunker;
import org.cairn.core.chunk.Chunking;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;

/*
 * Store side of the data path: image -> chunks (fixed, format-aligned or content-defined) -> ids (keyed for encrypted apps) ->
 * dedup hook -> compress -> seal (encrypted apps) -> code -> fragments -> sink (FALCON-P: every chunk is an independent block).
 *
 * The calling thread reads and cuts the image; workers hash, compress and code. At most
 * `window` chunks are in flight (default 2 per worker), so memory stays near
 * window x (chunk + compressed + fragments) whatever the image size. Chunk buffers are recycled
 * through a small pool (a fresh 1 MiB array per chunk is a G1 humongous allocation). Chunk refs come back in image
 * order. With an {@link AsyncFragmentSink} a chunk stays in the window until its sink future
 * completes, so workers go on encoding while fragments wait for acknowledgements (and a sink can
 * batch the fragments of many chunks); the chunk buffer goes back to the pool as soon as the
 * chunk is encoded, since fragments never share memory with it. A chunk already in the dedup index, or seen earlier in the same image, is referenced and
 * not sent.
 */
public final class StorePipeline {
  /** Which chunks the grid already holds for this namespace. Must be thread-safe. */
  public interface DedupIndex {
    DedupIndex NONE = id -> false;

    boolean contains(ChunkId id) throws IOException;
  }

  /**
   * The base a new chunk may be coded against ({@link ChunkCodec.Base}): the previous version's chunk
   * at the same memory address. Called from worker threads; null when there is none.
   */
  public interface BaseSource {
    BaseSource NONE = (id, address, length) -> CompletableFuture.completedFuture(null);

    /** The base for new chunk {@code id} at memory {@code address}, or a future of null; never fails (no base: coded plainly). */
    CompletableFuture<ChunkCodec.Base> baseFor(ChunkId id, long address, int length);

    /**
     * New chunk {@code id} at memory {@code address}, {@code data[0, length)}, was coded plainly into
     * {@code fragments}: the next version's chunk at that address may be coded against it. Called
     * from worker threads before the buffer is reused.
     */
    default void codedPlainly(ChunkId id, long address, byte[] data, int length, Fragment[] fragments) {}
  }

  /** Receives the fragments of each new chunk. Called from worker threads; may block (backpressure). */
  public interface FragmentSink {
    void store(long chunkIndex, Fragment[] fragments) throws IOException;
  }

  /**
   * Receives the fragments of each new chunk and answers with a future that completes when they
   * are stored (or fails the store). Called from worker threads; should not block for long.
   */
  public interface AsyncFragmentSink {
    CompletableFuture<?> store(long chunkIndex, Fragment[] fragments) throws IOException;

    /**
     * The image's last chunk has been read and every chunk's fragments handed to {@link #store}: nothing more comes
     * (called once, before the store returns).
     */
    default void inputEnded() {}

    /** {@code sink}, running {@code ended} as its {@link #inputEnded} (every chunk read, every chunk handed on). */
    static AsyncFragmentSink endingWith(AsyncFragmentSink sink, Runnable ended) {
      return new AsyncFragmentSink() {
        @Override
        public CompletableFuture<?> store(long chunkIndex, Fragment[] fragments) throws IOException {
          return sink.store(chunkIndex, fragments);
        }

        @Override
        public void inputEnded() {
          ended.run();
        }
      };
    }
  }

  private final ChunkCodec codec;
  private final int chunkSize;
  private final int threads;
  private final int window;
  private final Chunking chunking;
  /** Chunks in the ordered window: read, being coded, or waiting for their pieces' acknowledgements. */
  private final int ordered;
  /** Bytes of pieces waiting for acknowledgement above which the reader waits (Long.MAX_VALUE: the window alone bounds them). */
  private final long awaitingBytes;

  public StorePipeline(ChunkCodec codec, int chunkSize, int threads) {
    this(codec, chunkSize, threads, 2 * threads);
  }

  public StorePipeline(ChunkCodec codec, int chunkSize, int threads, int window) {
    this(codec, Chunking.FIXED, chunkSize, threads, window);
  }

  public StorePipeline(ChunkCodec codec, Chunking chunking, int chunkSize, int threads, int window) {
    this(codec, chunking, chunkSize, threads, window, window, Long.MAX_VALUE);
  }

  /**
   * With at most {@code window} chunks read and not yet coded (their buffers), and chunks waiting for
   * acknowledgements bounded by the bytes of their pieces ({@code awaitingBytes}) instead of by the
   * window: an acknowledgement takes a durable write at the peers and the sink's linger, during which a
   * window of a few dozen chunks (most of them deduplicated in a successor) would hold the reader back.
   */
  public StorePipeline(ChunkCodec codec, Chunking chunking, int chunkSize, int threads, int window, long awaitingBytes) {
    this(codec, chunking, chunkSize, threads, window, (int) Math.min(MAX_ORDERED, 64L * window), awaitingBytes);
  }

  /** The most chunks the ordered window holds when acknowledgements are bounded by bytes. */
  static final int MAX_ORDERED = 8192;

  private StorePipeline(ChunkCodec codec, Chunking chunking, int chunkSize, int threads, int window, int ordered,
      long awaitingBytes) {
    if (awaitingBytes < 1) {
      throw new IllegalArgumentException("bytes awaiting acknowledgement must be positive, was " + awaitingBytes);
    }
    this.ordered = ordered;
    this.awaitingBytes = awaitingBytes;
    this.codec = Objects.requireNonNull(codec, "codec");
    this.chunking = Objects.requireNonNull(chunking, "chunking");
    this.chunkSize = ChunkSize.validate(chunkSize);
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    this.threads = threads;
    this.window = window;
  }

  public StoreResult store(InputStream in, DedupIndex dedup, FragmentSink sink) throws IOException {
    Objects.requireNonNull(sink, "sink");
    return storeAsync(in, dedup, (index, fragments) -> {
      sink.store(index, fragments);
      return CompletableFuture.completedFuture(null);
    });
  }

  /** As {@link #store}, with a sink that acknowledges asynchronously. */
  public StoreResult storeAsync(InputStream in, DedupIndex dedup, AsyncFragmentSink sink) throws IOException {
    return storeAsync(in, dedup, BaseSource.NONE, sink);
  }

  /** As {@link #storeAsync(InputStream, DedupIndex, AsyncFragmentSink)}, coding new chunks against the bases {@code bases} gives. */
  public StoreResult storeAsync(InputStream in, DedupIndex dedup, BaseSource bases, AsyncFragmentSink sink) throws IOException {
    Objects.requireNonNull(dedup, "dedup");
    Objects.requireNonNull(bases, "bases");
    Objects.requireNonNull(sink, "sink");
    // window in flight + one being filled + one per worker finishing: the pool never runs dry
    BufferPool pool = new BufferPool(chunking.maxChunk(chunkSize), window + threads + 1);
    // a chunk's buffer is out from its read until it is identified or coded: at most `window` of them
    java.util.concurrent.Semaphore buffersOut = new java.util.concurrent.Semaphore(window);
    Chunker chunker = chunking.chunker(in, chunkSize, () -> {
      try {
        buffersOut.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.UncheckedIOException(new java.io.InterruptedIOException("interrupted while chunks are coded"));
      }
      return pool.take();
    });
    Set<ChunkId> seen = ConcurrentHashMap.newKeySet();
    StoreResult result = new StoreResult();
    ExecutorService workers = Pools.workers("store", threads);
    OrderedWindow<StoreResult.Outcome> stage = new OrderedWindow<>(workers, ordered, result::add);
    AwaitingBytes awaiting = new AwaitingBytes(awaitingBytes);
    LastChunk last = new LastChunk(sink);
    try {
      Chunk c;
      while ((c = next(chunker, awaiting)) != null) {
        last.read();
        Chunk chunk = c;
        // id and dedup on a worker; a new chunk then waits for its base's read (if any) without holding a worker
        stage.submitFuture(() -> CompletableFuture.supplyAsync(() -> identify(chunk, dedup, seen), workers)
            .thenCompose(known -> {
              if (!known.isNew()) {
                return CompletableFuture.completedFuture(new Processed(new StoreResult.Outcome(known.ref(), null),
                    CompletableFuture.completedFuture(null)));
              }
              CompletableFuture<ChunkCodec.Base> base = chunk.address() < 0 ? CompletableFuture.completedFuture(null)
                  : bases.baseFor(known.ref().id(), chunk.address(), chunk.length()).exceptionally(e -> null);
              java.util.function.Function<ChunkCodec.Base, Processed> encoding = b -> {
                try {
                  return encode(chunk, known.ref(), b, bases, sink, awaiting);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              };
              // no base to wait for (most chunks): encode on this worker, as before; else once the base is read
              return base.isDone() ? base.thenApply(encoding) : base.thenApplyAsync(encoding, workers);
            })
            .whenComplete((p, e) -> {
              pool.give(chunk.data());
              buffersOut.release();
              last.handed();
            })
            .thenCompose(p -> p.acked.thenApply(x -> p.outcome)));
      }
      last.ended();
      stage.drain();
    } catch (IOException | RuntimeException | Error e) {
      stage.cancel();
      throw e;
    } finally {
      Pools.shutdown(workers);
    }
    return result;
  }

  /**
   * Tells the sink {@link AsyncFragmentSink#inputEnded} once the image's last chunk is read and every chunk read has
   * been handed on (its fragments to the sink, or found known): from then on nothing more comes to batch with.
   */
  private static final class LastChunk {
    private final AsyncFragmentSink sink;
    private long read;
    private long handed;
    private boolean ended;
    private boolean told;

    LastChunk(AsyncFragmentSink sink) {
      this.sink = sink;
    }

    synchronized void read() {
      read++;
    }

    void handed() {
      synchronized (this) {
        handed++;
        if (!ended || handed < read || told) {
          return;
        }
        told = true;
      }
      sink.inputEnded();
    }

    void ended() {
      synchronized (this) {
        ended = true;
        if (handed < read || told) {
          return;
        }
        told = true;
      }
      sink.inputEnded();
    }
  }

  /** The next chunk of the image (null at its end), read once the pieces awaiting acknowledgement are under their limit. */
  private static Chunk next(Chunker chunker, AwaitingBytes awaiting) throws IOException {
    awaiting.waitBelowLimit();
    return chunker.next();
  }

  /** A chunk's ref, and whether it is new to the grid and to this image (else it is referenced, not sent). */
  private record Identified(ChunkRef ref, boolean isNew) {}

  private Identified identify(Chunk c, DedupIndex dedup, Set<ChunkId> seen) {
    ChunkId id = codec.id(c.data(), c.length());
    ChunkRef ref = new ChunkRef(id, c.length(), c.address() < 0 ? null : c.address());
    try {
      return new Identified(ref, !dedup.contains(id) && seen.add(id));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private Processed encode(Chunk c, ChunkRef ref, ChunkCodec.Base base, BaseSource bases, AsyncFragmentSink sink,
      AwaitingBytes awaiting) throws IOException {
    Fragment[] fragments = codec.encode(ref.id(), c.data(), c.length(), base);
    if (c.address() >= 0 && !fragments[0].compression().delta()) {
      bases.codedPlainly(ref.id(), c.address(), c.data(), c.length(), fragments);
    }
    StoreResult.Outcome outcome = new StoreResult.Outcome(ref, fragments);
    awaiting.add(outcome.storedBytes);
    CompletableFuture<?> acked;
    try {
      acked = Objects.requireNonNull(sink.store(c.index(), fragments), "sink future");
    } catch (IOException | RuntimeException e) {
      awaiting.release(outcome.storedBytes);
      throw e;
    }
    acked.whenComplete((x, e) -> awaiting.release(outcome.storedBytes));
    return new Processed(outcome, acked);
  }

  private record Processed(StoreResult.Outcome outcome, CompletableFuture<?> acked) {}
}
