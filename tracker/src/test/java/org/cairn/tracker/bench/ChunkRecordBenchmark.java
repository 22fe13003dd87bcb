package org.cairn.tracker.bench;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cairn.core.api.TrackerHttp;
import org.cairn.tracker.catalog.ChunkRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A chunk record of the index (code:4+2, six holders and tags) in its binary form against the JSON
 * it replaced: what a commit pays per new chunk (encode) and the repair scan per chunk (decode).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChunkRecordBenchmark {
  private final ChunkRecord record = new ChunkRecord(List.of("peer-0a1b2c3d", "peer-1b2c3d4e", "peer-2c3d4e5f", "peer-3d4e5f60",
      "peer-4e5f6071", "peer-5f607182"), 1_572_864, 1, "code:4+2", "jobhost-7",
      List.of("00000001", "00000002", "00000003", "00000004", "00000005", "00000006"), null);
  private final byte[] binary = record.encode();
  private final byte[] json;

  public ChunkRecordBenchmark() {
    try {
      json = TrackerHttp.JSON.writeValueAsBytes(record);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Benchmark
  public ChunkRecord decodeBinary() throws IOException {
    return ChunkRecord.decode(binary);
  }

  @Benchmark
  public ChunkRecord decodeJson() throws IOException {
    return ChunkRecord.decode(json);
  }

  @Benchmark
  public byte[] encodeBinary() {
    return record.encode();
  }

  @Benchmark
  public byte[] encodeJson() throws IOException {
    return TrackerHttp.JSON.writeValueAsBytes(record);
  }
}
