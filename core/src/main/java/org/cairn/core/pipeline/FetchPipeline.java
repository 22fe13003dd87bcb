package org.cairn.core.pipeline;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.cairn.core.CorruptDataException;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.manifest.ChunkRef;

/*
 * Fetch side of the data path: for each chunk of the map, fragments from the source -> decode ->
 * decompress -> verify content id -> write in order. Workers rebuild up to `window` chunks at once
 * into pooled buffers; the calling thread writes them in order and returns the buffers, so memory
 * stays bounded by the window.
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

  private final int threads;
  private final int window;

  public FetchPipeline(int threads) {
    this(threads, 2 * threads);
  }

  public FetchPipeline(int threads, int window) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    this.threads = threads;
    this.window = window;
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

  private long run(List<ChunkRef> chunks, AsyncFragmentSource async, FragmentSource source, OutputStream out) throws IOException {
    long[] written = {0};
    int largest = 1;
    for (ChunkRef ref : chunks) {
      largest = Math.max(largest, ref.length());
    }
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
        if (async != null) {
          stage.submitFuture(() -> async.fragments(index, ref).thenApplyAsync(f -> {
            try {
              return rebuild(index, ref, f, buffers);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }, workers));
        } else {
          stage.submit(() -> rebuild(index, ref, source.fragments(index, ref), buffers));
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

  private static Rebuilt rebuild(long index, ChunkRef ref, Fragment[] fragments, BufferPool buffers) throws IOException {
    byte[] buffer = buffers.take();
    boolean handedOff = false;
    try {
      int length;
      try {
        length = ChunkCodec.decode(ref.id(), fragments, buffer);
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
