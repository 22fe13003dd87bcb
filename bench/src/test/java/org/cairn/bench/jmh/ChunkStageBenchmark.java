package org.cairn.bench.jmh;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.cairn.core.chunk.Chunk;
import org.cairn.core.chunk.FixedSizeChunker;
import org.cairn.core.compress.Compressed;
import org.cairn.core.compress.Compressor;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
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

/** Per-chunk stages on one synthetic memory-image chunk: hashing, chunking, each compressor. Ops/s of one chunk. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChunkStageBenchmark {
  @Param({"1048576"})
  int chunkSize;

  @Param({"zstd:1", "auto", "gzip:1"})
  String compression;

  private byte[] image;
  private byte[] chunk;
  private Compressor compressor;
  private Compressed compressed;

  @Setup
  public void setup() {
    image = MemoryImages.image(42, 64 * chunkSize);
    chunk = java.util.Arrays.copyOfRange(image, 7 * chunkSize, 8 * chunkSize);
    compressor = Compressor.parse(compression);
    compressed = compressor.compress(chunk, 0, chunk.length);
  }

  @Benchmark
  public ChunkId sha256() {
    return ChunkId.of(chunk);
  }

  @Benchmark
  public Compressed compress() {
    return compressor.compress(chunk, 0, chunk.length);
  }

  @Benchmark
  public byte[] decompress() throws IOException {
    return compressed.type().decompress(compressed.data(), 0, compressed.length(), chunk.length);
  }

  /** Cut the 64-chunk image; score x 64 = chunks per second. */
  @Benchmark
  public long chunkImage() throws IOException {
    FixedSizeChunker chunker = new FixedSizeChunker(new ByteArrayInputStream(image), chunkSize);
    long n = 0;
    Chunk c;
    while ((c = chunker.next()) != null) {
      n += c.length();
    }
    return n;
  }
}
