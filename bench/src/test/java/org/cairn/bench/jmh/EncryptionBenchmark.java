package org.cairn.bench.jmh;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.FetchPipeline;
import org.cairn.core.pipeline.StorePipeline;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The store and fetch pipelines with and without encryption (a 64 MiB synthetic memory
 * image, 1 MiB chunks, auto compression, code:3+2, no network). Store: chunk, id (SHA-256 or the app
 * key's HMAC), compress, seal, code, into a discarding sink. Fetch: decode, open, decompress, check
 * the id, into a discarding stream. Ops/s of the whole image; the requirement is encrypted >= 0.85 x none.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EncryptionBenchmark {
  public static final int IMAGE_SIZE = 64 << 20;

  @Param({"none", "aes-gcm", "aes-siv"})
  String encryption;

  @Param({"2"})
  int threads;

  private byte[] image;
  private StorePipeline store;
  private FetchPipeline fetch;
  private List<ChunkRef> chunks;
  private final Map<ChunkId, Fragment[]> stored = new ConcurrentHashMap<>();

  @Setup
  public void setup() throws IOException {
    image = MemoryImages.image(42, IMAGE_SIZE);
    ChunkCrypto crypto = AppKey.generate("bench", Instant.EPOCH).crypto(Encryption.parse(encryption));
    store = new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:3+2"), crypto), 1 << 20, threads);
    chunks = store.store(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE, (i, f) -> stored.put(f[0].chunkId(), f))
        .chunks();
    fetch = new FetchPipeline(threads, 2 * threads, 0, crypto);
  }

  @Benchmark
  public long store() throws IOException {
    return store.store(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE, (i, f) -> { }).storedBytes();
  }

  @Benchmark
  public long fetch() throws IOException {
    return fetch.fetch(chunks, (i, ref) -> stored.get(ref.id()), OutputStream.nullOutputStream());
  }
}
