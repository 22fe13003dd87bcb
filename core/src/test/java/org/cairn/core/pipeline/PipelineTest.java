package org.cairn.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PipelineTest {
  private static final int CHUNK = 64 * 1024;

  /** An in-memory "grid": fragments by chunk id, as serialised bytes, the way peers hold them. */
  static final class MemoryGrid implements StorePipeline.FragmentSink, StorePipeline.DedupIndex, FetchPipeline.FragmentSource {
    final Map<ChunkId, byte[][]> stored = new ConcurrentHashMap<>();
    final AtomicInteger chunksReceived = new AtomicInteger();

    @Override
    public void store(long chunkIndex, Fragment[] fragments) {
      byte[][] bytes = new byte[fragments.length][];
      for (int i = 0; i < fragments.length; i++) {
        bytes[i] = fragments[i].toBytes();
      }
      chunksReceived.incrementAndGet();
      assertThat(stored.putIfAbsent(fragments[0].chunkId(), bytes)).as("chunk sent twice").isNull();
    }

    @Override
    public boolean contains(ChunkId id) {
      return stored.containsKey(id);
    }

    @Override
    public Fragment[] fragments(long chunkIndex, org.cairn.core.manifest.ChunkRef ref) throws IOException {
      byte[][] bytes = stored.get(ref.id());
      if (bytes == null) {
        throw new IOException("no fragments of chunk " + ref.id().shortHex());
      }
      Fragment[] out = new Fragment[bytes.length];
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] != null) {
          try {
            out[i] = Fragment.parse(bytes[i]);
          } catch (CorruptDataException e) {
            out[i] = null; // a real source reports it and asks another holder
          }
        }
      }
      return out;
    }
  }

  @ParameterizedTest(name = "{0} {1} threads={2}")
  @CsvSource({"code:4+2,auto,1", "code:3+2,zstd:3,2", "cauchy:4+2,auto,2", "replicate:3,none,2", "code:4+2,gzip:1,4"})
  void storeThenFetch_isByteIdentical(String redundancy, String compression, int threads) throws IOException {
    byte[] image = MemoryImages.image(21, 3 * 1024 * 1024 + 12345);
    image = java.util.Arrays.copyOf(image, image.length + 777); // a tail that is not page-aligned
    MemoryGrid grid = new MemoryGrid();
    StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse(compression), Redundancy.parse(redundancy)), CHUNK, threads);
    StoreResult r = store.store(new ByteArrayInputStream(image), grid, grid);
    assertThat(r.bytesIn()).isEqualTo(image.length);
    assertThat(r.chunks()).hasSize((image.length + CHUNK - 1) / CHUNK);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long written = new FetchPipeline(threads).fetch(r.chunks(), grid, out);
    assertThat(written).isEqualTo(image.length);
    assertThat(out.toByteArray()).isEqualTo(image);
  }

  @Test
  void storeAsync_saysOnceWhenEveryChunkIsHandedOn_beforeTheStoreCompletes() throws IOException {
    byte[] image = MemoryImages.image(8, 2 * 1024 * 1024);
    AtomicInteger stored = new AtomicInteger();
    AtomicInteger ended = new AtomicInteger();
    AtomicInteger storedWhenEnded = new AtomicInteger(-1);
    StorePipeline.AsyncFragmentSink sink = StorePipeline.AsyncFragmentSink.endingWith((i, f) -> {
      stored.incrementAndGet();
      return CompletableFuture.completedFuture(null);
    }, () -> {
      storedWhenEnded.set(stored.get());
      ended.incrementAndGet();
    });
    StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse("zstd:1"), Redundancy.parse("code:3+2")), CHUNK, 2);
    StoreResult r = store.storeAsync(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE, sink);
    assertThat(ended.get()).as("told once, before the store returned").isEqualTo(1);
    assertThat(r.newChunks()).isEqualTo(stored.get()).isPositive();
    assertThat(storedWhenEnded.get()).as("every chunk handed on before the sink is told").isEqualTo(stored.get());
  }

  @Test
  void store_sendsOnlyChunksTheGridDoesNotHold() throws IOException {
    byte[] first = MemoryImages.image(5, 4 * 1024 * 1024);
    byte[] second = MemoryImages.successor(first, 0.10, 6);
    MemoryGrid grid = new MemoryGrid();
    StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:4+2")), CHUNK, 2);
    StoreResult r1 = store.store(new ByteArrayInputStream(first), grid, grid);
    int afterFirst = grid.chunksReceived.get();
    assertThat(r1.newChunks()).isEqualTo(afterFirst);
    // zero pages repeat within one image: sent once
    assertThat(r1.dedupChunks()).isPositive();

    StoreResult r2 = store.store(new ByteArrayInputStream(second), grid, grid);
    long changedChunks = 0;
    for (int c = 0; c < first.length / CHUNK; c++) {
      if (!java.util.Arrays.equals(first, c * CHUNK, (c + 1) * CHUNK, second, c * CHUNK, (c + 1) * CHUNK)) {
        changedChunks++;
      }
    }
    assertThat(changedChunks).isPositive();
    assertThat(r2.newChunks()).isEqualTo(grid.chunksReceived.get() - afterFirst).isLessThanOrEqualTo(changedChunks);
    assertThat(r2.newBytes()).isLessThan(first.length / 2);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new FetchPipeline(2).fetch(r2.chunks(), grid, out);
    assertThat(out.toByteArray()).isEqualTo(second);
  }

  @Test
  void fetch_rebuildsFromAnyMAndSkipsCorruptFragments() throws IOException {
    byte[] image = MemoryImages.image(8, 2 * 1024 * 1024);
    MemoryGrid grid = new MemoryGrid();
    StoreResult r = new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:4+2")), CHUNK, 2)
        .store(new ByteArrayInputStream(image), grid, grid);
    int i = 0;
    for (byte[][] fragments : grid.stored.values()) {
      fragments[i % 6] = null; // a dead peer
      byte[] damaged = fragments[(i + 3) % 6];
      damaged[damaged.length - 1] ^= 0x7F; // a rotten disk
      i++;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new FetchPipeline(2).fetch(r.chunks(), grid, out);
    assertThat(out.toByteArray()).isEqualTo(image);
  }

  /** The grid as an asynchronous source that counts the reads of each chunk in {@code asked}. */
  private static FetchPipeline.AsyncFragmentSource counted(MemoryGrid grid, Map<ChunkId, AtomicInteger> asked) {
    return (index, ref) -> {
      asked.computeIfAbsent(ref.id(), x -> new AtomicInteger()).incrementAndGet();
      return CompletableFuture.supplyAsync(() -> {
        try {
          return grid.fragments(index, ref);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
    };
  }

  @ParameterizedTest(name = "async={0} cache={1}")
  @CsvSource({"false,67108864", "true,67108864", "false,0", "true,0", "true,65536"})
  void fetch_getsAChunkThatRecursOnce_whileItsCopiesFitTheCache(boolean async, long cacheBytes) throws Exception {
    // zero pages everywhere, and a pattern that recurs far apart: A B C A B C
    byte[] image = new byte[24 * CHUNK];
    java.util.Random rnd = new java.util.Random(4);
    byte[][] abc = new byte[3][CHUNK];
    for (byte[] x : abc) {
      rnd.nextBytes(x);
    }
    for (int c = 0; c < 24; c++) {
      if (c % 4 == 1) {
        System.arraycopy(abc[(c / 4) % 3], 0, image, c * CHUNK, CHUNK);
      } else if (c % 4 == 3) {
        byte[] unique = new byte[CHUNK];
        rnd.nextBytes(unique);
        System.arraycopy(unique, 0, image, c * CHUNK, CHUNK);
      } // else: a zero page
    }
    MemoryGrid grid = new MemoryGrid();
    StoreResult r = new StorePipeline(new ChunkCodec(Compressor.parse("zstd:3"), Redundancy.parse("code:3+2")), CHUNK, 2)
        .store(new ByteArrayInputStream(image), grid, grid);
    Map<ChunkId, AtomicInteger> asked = new ConcurrentHashMap<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FetchPipeline fetch = new FetchPipeline(2, 4, cacheBytes);
    if (async) {
      fetch.fetchAsync(r.chunks(), counted(grid, asked), out);
    } else {
      fetch.fetch(r.chunks(), (index, ref) -> {
        asked.computeIfAbsent(ref.id(), x -> new AtomicInteger()).incrementAndGet();
        return grid.fragments(index, ref);
      }, out);
    }
    assertThat(out.toByteArray()).isEqualTo(image);
    int references = asked.values().stream().mapToInt(AtomicInteger::get).sum();
    if (cacheBytes >= 4 * CHUNK) {
      assertThat(asked.values()).as("each distinct chunk fetched once").allMatch(n -> n.get() == 1);
    } else if (cacheBytes == 0) {
      assertThat(references).as("without a cache every reference is fetched").isEqualTo(r.chunks().size());
    } else {
      // room for one copy: the zero page (first to recur) is kept, the A B C copies do not fit and are fetched again
      assertThat(references).isGreaterThan(asked.size()).isLessThan(r.chunks().size());
    }
  }

  @Test
  void fetchAsync_takesChunksThisHostHolds_andReadsTheOthersAndAnyThatDoNotMatchTheirIdFromTheSource() throws Exception {
    byte[] image = new byte[16 * CHUNK];
    new java.util.Random(11).nextBytes(image);
    MemoryGrid grid = new MemoryGrid();
    StoreResult r = new StorePipeline(new ChunkCodec(Compressor.parse("zstd:1"), Redundancy.parse("code:3+2")), CHUNK, 2)
        .store(new ByteArrayInputStream(image), grid, grid);
    // this host holds chunks 0..7; 2 and 5 are damaged on its disk (a flipped byte, a truncated copy)
    Map<ChunkId, byte[]> here = new ConcurrentHashMap<>();
    for (int c = 0; c < 8; c++) {
      here.put(r.chunks().get(c).id(), java.util.Arrays.copyOfRange(image, c * CHUNK, (c + 1) * CHUNK));
    }
    here.get(r.chunks().get(2).id())[100] ^= 1;
    here.put(r.chunks().get(5).id(), java.util.Arrays.copyOf(here.get(r.chunks().get(5).id()), CHUNK - 1));
    Map<ChunkId, AtomicInteger> asked = new ConcurrentHashMap<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AtomicInteger looked = new AtomicInteger();
    FetchPipeline fetch = new FetchPipeline(2, 4).withLocal(new FetchPipeline.LocalChunks() {
      @Override
      public byte[] find(org.cairn.core.manifest.ChunkRef ref) {
        looked.incrementAndGet();
        return here.get(ref.id());
      }

      @Override
      public boolean mayHold(org.cairn.core.manifest.ChunkRef ref) {
        return here.containsKey(ref.id());
      }
    });
    fetch.fetchAsync(r.chunks(), counted(grid, asked), out);
    assertThat(out.toByteArray()).isEqualTo(image);
    assertThat(fetch.foundHere()).isEqualTo(6);
    assertThat(fetch.refusedHere()).isEqualTo(2);
    assertThat(looked.get()).as("only chunks the index may hold are looked for").isEqualTo(8);
    assertThat(asked.keySet()).as("read from the source: the chunks not here, and the two damaged ones")
        .containsExactlyInAnyOrderElementsOf(java.util.stream.Stream.of(2, 5, 8, 9, 10, 11, 12, 13, 14, 15)
            .map(c -> r.chunks().get(c).id()).toList());
  }

  @Test
  void fetch_failsClearlyWhenTooFewFragmentsRemain() throws IOException {
    byte[] image = MemoryImages.image(9, 512 * 1024);
    MemoryGrid grid = new MemoryGrid();
    StoreResult r = new StorePipeline(new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse("code:3+2")), CHUNK, 2)
        .store(new ByteArrayInputStream(image), grid, grid);
    byte[][] victim = grid.stored.get(r.chunks().get(2).id());
    victim[0] = null;
    victim[2] = null;
    victim[4] = null;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThatThrownBy(() -> new FetchPipeline(2).fetch(r.chunks(), grid, out))
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("chunk 2")
        .hasMessageContaining("need 3 of 5 fragments, have 2");
  }

  @Test
  void fetch_detectsFragmentsOfTheWrongChunk() throws IOException {
    byte[] image = MemoryImages.image(10, 512 * 1024);
    MemoryGrid grid = new MemoryGrid();
    StoreResult r = new StorePipeline(new ChunkCodec(Compressor.parse("none"), Redundancy.parse("replicate:2")), CHUNK, 1)
        .store(new ByteArrayInputStream(image), grid, grid);
    FetchPipeline.FragmentSource swapped = (index, ref) -> grid.fragments(index, r.chunks().get((int) ((index + 1) % r.chunks().size())));
    assertThatThrownBy(() -> new FetchPipeline(1).fetch(r.chunks(), swapped, new ByteArrayOutputStream()))
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("given for chunk");
  }

  @Test
  void store_propagatesSinkAndSourceFailures() {
    byte[] image = MemoryImages.image(12, 1024 * 1024);
    StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:3+2")), CHUNK, 2);
    AtomicInteger calls = new AtomicInteger();
    StorePipeline.FragmentSink failing = (index, fragments) -> {
      if (calls.incrementAndGet() == 3) {
        throw new IOException("peer p3 went away");
      }
    };
    assertThatThrownBy(() -> store.store(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE, failing))
        .isInstanceOf(IOException.class).hasMessage("peer p3 went away");

    InputStream broken = new InputStream() {
      int n;

      @Override
      public int read() throws IOException {
        if (++n > 100_000) {
          throw new IOException("disk read error");
        }
        return 1;
      }
    };
    assertThatThrownBy(() -> store.store(broken, StorePipeline.DedupIndex.NONE, (i, f) -> { }))
        .isInstanceOf(IOException.class).hasMessage("disk read error");
  }

  @Test
  void store_keepsAtMostTheWindowInFlight() throws IOException {
    byte[] image = new byte[4 * 1024 * 1024];
    new java.util.Random(13).nextBytes(image); // every chunk unique, so every chunk reaches the sink
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger max = new AtomicInteger();
    AtomicInteger read = new AtomicInteger();
    AtomicInteger maxAhead = new AtomicInteger();
    AtomicInteger stored = new AtomicInteger();
    InputStream counting = new java.io.FilterInputStream(new ByteArrayInputStream(image)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
          int chunksRead = (read.addAndGet(n) + CHUNK - 1) / CHUNK;
          maxAhead.accumulateAndGet(chunksRead - stored.get(), Math::max);
        }
        return n;
      }
    };
    StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse("none"), Redundancy.parse("replicate:1")), CHUNK, 2, 3);
    store.store(counting, StorePipeline.DedupIndex.NONE, (i, f) -> {
      max.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      inFlight.decrementAndGet();
      stored.incrementAndGet();
    });
    assertThat(max.get()).isLessThanOrEqualTo(2);
    // reading never runs more than window + 1 chunks ahead of what has been handed to the sink
    assertThat(maxAhead.get()).isLessThanOrEqualTo(3 + 1 + 2);
  }

  @Test
  void withAByteBound_chunksAwaitingAcknowledgementAreBoundedByTheirPiecesBytes_notByTheWindow() throws Exception {
    byte[] image = new byte[4 * 1024 * 1024];
    new java.util.Random(23).nextBytes(image); // every chunk new and incompressible: 64 chunks of 64 KiB
    MemoryGrid grid = new MemoryGrid();
    java.util.concurrent.ScheduledExecutorService acker = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    java.util.concurrent.atomic.AtomicLong unackedBytes = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicLong maxUnackedBytes = new java.util.concurrent.atomic.AtomicLong();
    AtomicInteger unacked = new AtomicInteger();
    AtomicInteger maxUnacked = new AtomicInteger();
    try {
      int window = 4;
      long pieces = CHUNK * 5L / 3 + 5 * 200; // one chunk's pieces, headers included (code:3+2)
      long limit = 12 * pieces;
      StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:3+2")),
          org.cairn.core.chunk.Chunking.FIXED, CHUNK, 2, window, limit);
      StoreResult r = store.storeAsync(new ByteArrayInputStream(image), grid, (index, fragments) -> {
        long bytes = 0;
        for (Fragment f : fragments) {
          bytes += f.serializedSize();
        }
        long b = bytes;
        maxUnackedBytes.accumulateAndGet(unackedBytes.addAndGet(b), Math::max);
        maxUnacked.accumulateAndGet(unacked.incrementAndGet(), Math::max);
        CompletableFuture<Void> ack = new CompletableFuture<>();
        acker.schedule(() -> { // a slow acknowledgement: a durable write and a linger at the peers
          grid.store(index, fragments);
          unackedBytes.addAndGet(-b);
          unacked.decrementAndGet();
          ack.complete(null);
        }, 30, java.util.concurrent.TimeUnit.MILLISECONDS);
        return ack;
      });
      assertThat(r.newChunks()).isEqualTo(image.length / CHUNK);
      assertThat(grid.chunksReceived.get()).isEqualTo(image.length / CHUNK);
      assertThat(maxUnacked.get()).as("more chunks await acknowledgement than the window holds").isGreaterThan(2 * window);
      // the reader stops once the limit is reached; chunks already read or being coded (window + workers) may still follow
      assertThat(maxUnackedBytes.get()).isLessThanOrEqualTo(limit + (window + 2) * pieces);
    } finally {
      acker.shutdownNow();
    }
  }

  @Test
  void asyncSinkAndSource_keepTheWindowOfUnacknowledgedChunks_andRoundTrip() throws Exception {
    byte[] image = new byte[3 * 1024 * 1024];
    new java.util.Random(17).nextBytes(image); // every chunk unique
    MemoryGrid grid = new MemoryGrid();
    // acknowledgements come later, from another thread, in batches: like a peer fsyncing a batch of pieces
    java.util.concurrent.ScheduledExecutorService acker = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    AtomicInteger unacked = new AtomicInteger();
    AtomicInteger maxUnacked = new AtomicInteger();
    try {
      int window = 6;
      StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:3+2")), CHUNK, 2, window);
      StoreResult r = store.storeAsync(new ByteArrayInputStream(image), grid, (index, fragments) -> {
        maxUnacked.accumulateAndGet(unacked.incrementAndGet(), Math::max);
        java.util.concurrent.CompletableFuture<Void> ack = new java.util.concurrent.CompletableFuture<>();
        acker.schedule(() -> {
          grid.store(index, fragments);
          unacked.decrementAndGet();
          ack.complete(null);
        }, 3, java.util.concurrent.TimeUnit.MILLISECONDS);
        return ack;
      });
      assertThat(r.newChunks()).isEqualTo(image.length / CHUNK);
      assertThat(grid.chunksReceived.get()).isEqualTo(image.length / CHUNK);
      // several chunks wait for acknowledgement at once, never more than the window
      assertThat(maxUnacked.get()).isGreaterThan(1).isLessThanOrEqualTo(window);

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      AtomicInteger pending = new AtomicInteger();
      AtomicInteger maxPending = new AtomicInteger();
      long written = new FetchPipeline(2, window).fetchAsync(r.chunks(), (index, ref) -> {
        maxPending.accumulateAndGet(pending.incrementAndGet(), Math::max);
        java.util.concurrent.CompletableFuture<Fragment[]> f = new java.util.concurrent.CompletableFuture<>();
        acker.schedule(() -> {
          try {
            Fragment[] got = grid.fragments(index, ref);
            got[0] = null; // one piece missing: decode from the rest
            pending.decrementAndGet();
            f.complete(got);
          } catch (IOException e) {
            f.completeExceptionally(e);
          }
        }, 2, java.util.concurrent.TimeUnit.MILLISECONDS);
        return f;
      }, out);
      assertThat(written).isEqualTo(image.length);
      assertThat(out.toByteArray()).isEqualTo(image);
      assertThat(maxPending.get()).isGreaterThan(1).isLessThanOrEqualTo(window);
    } finally {
      acker.shutdownNow();
    }
  }

  @Test
  void asyncFailures_failTheStoreAndTheFetchWithTheirCause() {
    byte[] image = MemoryImages.image(12, 1024 * 1024);
    StorePipeline store = new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:3+2")), CHUNK, 2, 8);
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> store.storeAsync(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE, (index, fragments) ->
        calls.incrementAndGet() == 4 ? java.util.concurrent.CompletableFuture.failedFuture(new IOException("no alternate host is left"))
            : java.util.concurrent.CompletableFuture.completedFuture(null)))
        .isInstanceOf(IOException.class).hasMessage("no alternate host is left");

    java.util.List<org.cairn.core.manifest.ChunkRef> refs = java.util.List.of(
        new org.cairn.core.manifest.ChunkRef(ChunkId.of(new byte[10], 0, 10), 10));
    assertThatThrownBy(() -> new FetchPipeline(2, 4).fetchAsync(refs, (index, ref) ->
        java.util.concurrent.CompletableFuture.failedFuture(new java.util.concurrent.CompletionException(
            new IOException("chunk 0: holders did not answer in time"))), new ByteArrayOutputStream()))
        .isInstanceOf(IOException.class).hasMessage("chunk 0: holders did not answer in time");
  }
}
