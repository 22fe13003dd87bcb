package org.cairn.core.read;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.ChunkDecoder;

/**
 * The plaintext of base chunks (the chunks others are coded against), read through the
 * {@link ChunkReader} like any chunk: for fetch and verify, which
 * start a base's read with the read of the chunk that needs it ({@link #prefetch}), and for a store,
 * whose new chunks are coded against the previous version's. A base read once is kept until it is
 * taken; taking it again reads it again.
 */
public final class BaseReads implements ChunkCodec.Bases {
  private final ChunkReader reader;
  private final Function<ChunkId, LocatedChunk> locate;
  private final ChunkCrypto crypto;
  private volatile Function<ChunkId, byte[]> local = id -> null;
  private final Map<ChunkId, CompletableFuture<byte[]>> reads = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger foundHere = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger readFromGrid = new java.util.concurrent.atomic.AtomicInteger();

  /**
   * Bases located by {@code locate} (a located version's chunks), opened with {@code crypto} and
   * decoded by {@link ChunkDecoder#decodeBase}: a sealed base's tag proves its bytes without hashing
   * them again, and every chunk decoded against a base is checked against its own id.
   */
  public BaseReads(ChunkReader reader, Function<ChunkId, LocatedChunk> locate, ChunkCrypto crypto) {
    this.reader = reader;
    this.locate = locate;
    this.crypto = crypto;
  }

  /**
   * Bases found by {@code local} (a host's cache of plaintext chunks, which must give only intact
   * bytes of the chunk asked for, or null) are not read from the grid.
   */
  public BaseReads withLocal(Function<ChunkId, byte[]> local) {
    this.local = local;
    return this;
  }

  /** Starts reading the base {@code chunk} is coded against, if any. */
  public void prefetch(LocatedChunk chunk) {
    ChunkId base = chunk.baseId();
    if (base != null) {
      start(base);
    }
  }

  /** The base's plaintext, read now or earlier. */
  public CompletableFuture<byte[]> start(ChunkId base) {
    return reads.computeIfAbsent(base, this::readOnce);
  }

  /** The base's plaintext, read now and not kept. */
  public CompletableFuture<byte[]> readOnce(ChunkId base) {
    byte[] here = local.apply(base);
    if (here != null) {
      foundHere.incrementAndGet();
      return CompletableFuture.completedFuture(here);
    }
    readFromGrid.incrementAndGet();
    return reader.read(locate.apply(base)).thenApply(p -> {
      try {
        if (!p.enough()) {
          throw new CorruptDataException("base " + p.describe());
        }
        return ChunkDecoder.decodeBase(p.id(), p.fragments(), crypto);
      } catch (IOException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
  }

  /** Bases found on this host so far. */
  public int foundHere() {
    return foundHere.get();
  }

  /** Bases read from the grid so far. */
  public int readFromGrid() {
    return readFromGrid.get();
  }

  @Override
  public byte[] plaintext(ChunkId id) throws IOException {
    CompletableFuture<byte[]> f = start(id);
    try {
      return f.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof java.util.concurrent.CompletionException && e.getCause().getCause() != null
          ? e.getCause().getCause() : e.getCause();
      throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause.getMessage()), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading base " + id.shortHex(), e);
    } finally {
      reads.remove(id, f);
    }
  }
}
