package org.cairn.core.pipeline;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.cairn.core.CorruptDataException;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.manifest.ChunkRef;

/*
 * Fetch side of the data path: for each chunk of the map, fragments from the source -> decode ->
 * open (encrypted chunks, with the app key) -> decompress -> verify id -> write in order. Workers rebuild up to `window` chunks at once
 * into pooled buffers; the calling thread writes them in order and returns the buffers, so memory
 * stays bounded by the window. A chunk the map references more than once (a zero page) is fetched
 * once; a copy of it (at most REPEAT_CACHE_BYTES of such copies) serves its later references.
 */
public final class FetchPipeline {
  /** Supplies verified fragments of a chunk (any m or more; missing ones null). Thread-safe. */
  public interface FragmentSource {
    Fragment[] fragments(long chunkIndex, ChunkRef ref) throws IOException;
  }

  /**
   * Supplies verified fragments of a chunk asynchronously (network answers), so the window's chunks
   * are fetched concurrently while workers decode the ones that have arrived.
   */
  public interface AsyncFragmentSource {
    CompletableFuture<Fragment[]> fragments(long chunkIndex, ChunkRef ref);
  }

  /**
   * Chunks this host holds already (a restart where the job ran): a chunk's plaintext by its reference,
   * or null. What it gives is used only if it has the reference's length and id (its keyed id when the
   * app encrypts: a seal proves who sealed the bytes under an id, not that the id was computed from
   * them); otherwise the chunk is read from the source.
   */
  public interface LocalChunks {
    byte[] find(ChunkRef ref);

    /**
     * False when the chunk is surely not here (an index lookup, no I/O): it is then asked of the source
     * at once instead of after a worker has looked for it.
     */
    default boolean mayHold(ChunkRef ref) {
      return true;
    }
  }

  private final int threads;
  private final int window;
  private volatile LocalChunks local;
  private final java.util.concurrent.atomic.AtomicInteger foundHere = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger refusedHere = new java.util.concurrent.atomic.AtomicInteger();
  private final long repeatCacheBytes;
  private final ChunkCrypto crypto;
  private final ChunkCodec.Bases bases;

  public FetchPipeline(int threads) {
    this(threads, 2 * threads);
  }

  public FetchPipeline(int threads, int window) {
    this(threads, window, REPEAT_CACHE_BYTES);
  }

  /** With {@code repeatCacheBytes} for copies of chunks the map references again (0: fetch every reference). */
  public FetchPipeline(int threads, int window, long repeatCacheBytes) {
    this(threads, window, repeatCacheBytes, ChunkCrypto.PLAIN);
  }

  /** As above, opening encrypted chunks with {@code crypto} (the version's app key). */
  public FetchPipeline(int threads, int window, long repeatCacheBytes, ChunkCrypto crypto) {
    this(threads, window, repeatCacheBytes, crypto, ChunkCodec.Bases.NONE);
  }

  /** As above, decoding chunks coded against a base with the base's plaintext from {@code bases}. */
  public FetchPipeline(int threads, int window, long repeatCacheBytes, ChunkCrypto crypto, ChunkCodec.Bases bases) {
    this.crypto = Objects.requireNonNull(crypto, "crypto");
    this.bases = Objects.requireNonNull(bases, "bases");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    this.threads = threads;
    this.window = window;
    this.repeatCacheBytes = repeatCacheBytes;
  }

  /** Asks {@code local} for each chunk before the asynchronous source ({@link #fetchAsync}); returns this pipeline. */
  public FetchPipeline withLocal(LocalChunks local) {
    this.local = Objects.requireNonNull(local, "local");
    return this;
  }

  /** Chunks {@link LocalChunks} gave that were used (one per first reference; later ones are copies). */
  public int foundHere() {
    return foundHere.get();
  }

  /** Chunks {@link LocalChunks} gave with another length or id (read from the source instead). */
  public int refusedHere() {
    return refusedHere.get();
  }

  /** Writes the image described by {@code chunks} to {@code out}; returns the bytes written. */
  public long fetch(List<ChunkRef> chunks, FragmentSource source, OutputStream out) throws IOException {
    Objects.requireNonNull(source, "source");
    return run(chunks, null, source, out);
  }

  /** As {@link #fetch}, with fragments that arrive asynchronously; decoding runs on the workers. */
  public long fetchAsync(List<ChunkRef> chunks, AsyncFragmentSource source, OutputStream out) throws IOException {
    Objects.requireNonNull(source, "source");
    return run(chunks, source, null, out);
  }

  /** Default bytes of decoded chunks kept for later references to the same chunk (zero pages recur throughout a memory image). */
  public static final long REPEAT_CACHE_BYTES = 64L << 20;

  private long run(List<ChunkRef> chunks, AsyncFragmentSource async, FragmentSource source, OutputStream out) throws IOException {
    long[] written = {0};
    int largest = 1;
    // references left to each chunk that recurs in the map: its first reference is fetched and decoded, and
    // a copy serves the later ones (while the copies fit in REPEAT_CACHE_BYTES; beyond that they are fetched again)
    java.util.Map<org.cairn.core.hash.ChunkId, Integer> refsLeft = new java.util.HashMap<>();
    for (ChunkRef ref : chunks) {
      largest = Math.max(largest, ref.length());
      refsLeft.merge(ref.id(), 1, Integer::sum);
    }
    refsLeft.values().removeIf(n -> n < 2);
    java.util.Map<org.cairn.core.hash.ChunkId, CompletableFuture<byte[]>> copies = new java.util.HashMap<>();
    long cached = 0;
    BufferPool buffers = new BufferPool(largest, window + threads + 1);
    ExecutorService workers = Pools.workers("fetch", threads);
    OrderedWindow<Rebuilt> stage = new OrderedWindow<>(workers, window, chunk -> {
      try {
        out.write(chunk.buffer, 0, chunk.length);
        written[0] += chunk.length;
      } finally {
        buffers.give(chunk.buffer);
      }
    });
    try {
      for (int i = 0; i < chunks.size(); i++) {
        long index = i;
        ChunkRef ref = chunks.get(i);
        Integer left = refsLeft.get(ref.id());
        CompletableFuture<byte[]> copy = left == null ? null : copies.get(ref.id());
        if (left != null) {
          if (left == 1) {
            refsLeft.remove(ref.id());
            if (copies.remove(ref.id()) != null) {
              cached -= ref.length();
            }
          } else {
            refsLeft.put(ref.id(), left - 1);
          }
        }
        if (copy != null) {
          stage.submitFuture(() -> copy.thenApplyAsync(bytes -> {
            byte[] buffer = buffers.take();
            System.arraycopy(bytes, 0, buffer, 0, bytes.length);
            return new Rebuilt(buffer, bytes.length);
          }, workers));
          continue;
        }
        CompletableFuture<byte[]> keep = null;
        if (left != null && left > 1 && cached + ref.length() <= repeatCacheBytes) {
          keep = new CompletableFuture<>();
          copies.put(ref.id(), keep);
          cached += ref.length();
        }
        CompletableFuture<byte[]> publish = keep;
        if (async != null) {
          LocalChunks here = local;
          stage.submitFuture(() -> (here == null || !here.mayHold(ref) ? fromSource(async, index, ref, buffers, workers)
              : CompletableFuture.supplyAsync(() -> fromHere(here, ref), workers).thenCompose(found -> found != null
                  ? CompletableFuture.completedFuture(found) : fromSource(async, index, ref, buffers, workers)))
              .thenApply(chunk -> kept(chunk, publish)).whenComplete((r, e) -> {
            if (e != null && publish != null) {
              publish.completeExceptionally(e);
            }
          }));
        } else {
          stage.submit(() -> {
            try {
              return kept(rebuild(index, ref, source.fragments(index, ref), buffers), publish);
            } catch (IOException | RuntimeException e) {
              if (publish != null) {
                publish.completeExceptionally(e);
              }
              throw e;
            }
          });
        }
      }
      stage.drain();
    } catch (IOException | RuntimeException | Error e) {
      stage.cancel();
      throw e;
    } finally {
      Pools.shutdown(workers);
    }
    return written[0];
  }

  private CompletableFuture<Rebuilt> fromSource(AsyncFragmentSource async, long index, ChunkRef ref, BufferPool buffers,
      ExecutorService workers) {
    return async.fragments(index, ref).thenApplyAsync(f -> {
      try {
        return rebuild(index, ref, f, buffers);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, workers);
  }

  /** The chunk from {@code here} if it gives bytes of the reference's length and id (checked as decoding checks it). */
  private Rebuilt fromHere(LocalChunks here, ChunkRef ref) {
    byte[] bytes = here.find(ref);
    if (bytes == null) {
      return null;
    }
    if (bytes.length != ref.length() || !(crypto.id(bytes, 0, bytes.length).equals(ref.id())
        || crypto.encryption().encrypted() && ChunkCrypto.PLAIN.id(bytes, 0, bytes.length).equals(ref.id()))) {
      refusedHere.incrementAndGet();
      return null;
    }
    foundHere.incrementAndGet();
    return new Rebuilt(bytes, bytes.length); // the writer offers it to the pool, which keeps it if it has the pool's size
  }

  /** Hands a copy of a decoded chunk to the later references waiting for it. */
  private static Rebuilt kept(Rebuilt chunk, CompletableFuture<byte[]> publish) {
    if (publish != null) {
      publish.complete(java.util.Arrays.copyOf(chunk.buffer, chunk.length));
    }
    return chunk;
  }

  private Rebuilt rebuild(long index, ChunkRef ref, Fragment[] fragments, BufferPool buffers) throws IOException {
    byte[] buffer = buffers.take();
    boolean handedOff = false;
    try {
      int length;
      try {
        length = ChunkDecoder.decode(ref.id(), fragments, buffer, crypto, bases);
      } catch (CorruptDataException e) {
        throw new CorruptDataException("chunk " + index + ": " + e.getMessage(), e);
      }
      if (length != ref.length()) {
        throw new CorruptDataException("chunk " + index + " (" + ref.id().shortHex() + ") has " + length
            + " bytes, the manifest says " + ref.length());
      }
      handedOff = true; // the writer returns the buffer to the pool
      return new Rebuilt(buffer, length);
    } finally {
      if (!handedOff) {
        buffers.give(buffer);
      }
    }
  }

  private static final class Rebuilt {
    final byte[] buffer;
    final int length;

    Rebuilt(byte[] buffer, int length) {
      this.buffer = buffer;
      this.length = length;
    }
  }
}
