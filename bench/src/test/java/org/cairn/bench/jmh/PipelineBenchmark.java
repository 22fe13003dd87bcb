package org.cairn.bench.jmh;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.image.MemoryImages;
import org.cairn.core.pipeline.ChunkCodec;
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

/** The store pipeline on a 128 MiB synthetic memory image into a discarding sink. Ops/s of the whole image. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class PipelineBenchmark {
  public static final int IMAGE_SIZE = 128 << 20;

  @Param({"1", "2"})
  int threads;

  @Param({"code:4+2", "cauchy:4+2"})
  String redundancy;

  private byte[] image;
  private StorePipeline pipeline;

  @Setup
  public void setup() {
    image = MemoryImages.image(42, IMAGE_SIZE);
    pipeline = new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse(redundancy)), 1 << 20, threads);
  }

  @Benchmark
  public long store() throws IOException {
    return pipeline.store(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE, (i, f) -> { }).storedBytes();
  }
}
