package org.cairn.bench.jmh;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cairn.core.erasure.CauchyCode;
import org.cairn.core.erasure.ReedSolomon;
import org.cairn.core.hash.ChunkId;
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
 * Erasure codes on preallocated shards against SHA-256 of the same m shards, in one run: the issue's
 * targets are ratios (RS >= 0.6 x SHA-256, Cauchy >= 1.5 x). Scores are operations per second of
 * m x shardSize bytes; multiply by m x shardSize for bytes per second (docs/benchmarks/journal.md does).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ErasureBenchmark {
  @Param({"4"})
  int m;

  @Param({"2"})
  int k;

  @Param({"1048576"})
  int shardSize;

  private ReedSolomon rs;
  private CauchyCode cauchy;
  private byte[][] shards;
  private byte[][] work;
  private boolean[] present;
  private byte[] concatenated;

  @Setup
  public void setup() {
    rs = new ReedSolomon(m, k);
    cauchy = new CauchyCode(m, k);
    Random random = new Random(1);
    shards = new byte[m + k][shardSize];
    for (int i = 0; i < m; i++) {
      random.nextBytes(shards[i]);
    }
    work = new byte[m + k][];
    for (int i = 0; i < m + k; i++) {
      work[i] = shards[i].clone();
    }
    present = new boolean[m + k];
    Arrays.fill(present, true);
    for (int i = 0; i < Math.min(k, m); i++) {
      present[i] = false;
    }
    concatenated = new byte[m * shardSize];
    random.nextBytes(concatenated);
  }

  @Benchmark
  public ChunkId sha256() {
    return ChunkId.of(concatenated);
  }

  @Benchmark
  public byte[][] reedSolomonEncode() {
    rs.encodeParity(work, 0, shardSize);
    return work;
  }

  @Benchmark
  public byte[][] reedSolomonDecode() {
    rs.reconstruct(work, present, 0, shardSize);
    return work;
  }

  @Benchmark
  public byte[][] cauchyEncode() {
    cauchy.encodeParity(work);
    return work;
  }

  @Benchmark
  public byte[][] cauchyDecode() {
    cauchy.reconstruct(work, present);
    return work;
  }
}
