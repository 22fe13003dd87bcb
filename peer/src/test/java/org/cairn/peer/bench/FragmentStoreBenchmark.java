package org.cairn.peer.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.erasure.Codec;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.peer.store.FragmentStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A donor's write path: one PUT batch of 16 pieces of 256 KiB (4 MiB, what the client sends to a
 * host at once), stored durably. {@code store} is FragmentStore.putAll (verify, RocksDB write batch
 * with sync: WAL, memtable, later the blob file); {@code appendOnly} is the floor for any design
 * that writes the bytes once: append them to a file and fsync. Both in the same run, so their
 * ratio is the headroom of the store's write path on this disk. Score: batches per second (x 4 MiB
 * for bytes per second). Run with peer/jmh.sh FragmentStoreBenchmark.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgs = {"-Xmx1g"})
public class FragmentStoreBenchmark {
  static final int PIECE = 256 * 1024;
  static final int PER_BATCH = 16;

  @Param({"1", "2"})
  public int writers;

  private Path dir;
  private FragmentStore store;
  private FileChannel log;
  private final List<byte[]> payloads = new ArrayList<>();
  private final java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
  private java.util.concurrent.ExecutorService pool;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir"))), "cairn-store-bench");
    store = FragmentStore.open(dir.resolve("store"));
    log = FileChannel.open(dir.resolve("append.log"), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 64; i++) {
      byte[] p = new byte[PIECE];
      r.nextBytes(p);
      payloads.add(p);
    }
    pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
  }

  private long cpuAtStart;
  private long batchesAtStart;

  @Setup(Level.Iteration)
  public void startIteration() {
    cpuAtStart = processCpuNanos();
    batchesAtStart = next.get() / PER_BATCH;
  }

  /** Prints the process's CPU time (every thread, RocksDB's background ones included) per batch. */
  @TearDown(Level.Iteration)
  public void endIteration() {
    long batches = next.get() / PER_BATCH - batchesAtStart;
    if (batches > 0) {
      System.out.printf(java.util.Locale.ROOT, "%n  [cpu] %.2f ms of process CPU per 4 MiB batch (%d batches)%n",
          (processCpuNanos() - cpuAtStart) / 1e6 / batches, batches);
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** One batch of new pieces (fresh chunk ids, so nothing is a rewrite). */
  private List<byte[]> batch() {
    List<byte[]> out = new ArrayList<>(PER_BATCH);
    for (int i = 0; i < PER_BATCH; i++) {
      long n = next.incrementAndGet();
      byte[] idBytes = ByteBuffer.allocate(32).putLong(n).putLong(n * 31).array();
      out.add(Fragment.create(ChunkId.of(idBytes), Codec.REED_SOLOMON, CompressionType.NONE, 0, 4, 2, 4 * PIECE, 4 * PIECE,
          payloads.get((int) (n % payloads.size()))).toBytes());
    }
    return out;
  }

  @Benchmark
  public long store() throws Exception {
    return runWriters(() -> store.putAll(batch()));
  }

  @Benchmark
  public long appendOnly() throws Exception {
    return runWriters(() -> {
      List<byte[]> b = batch();
      long n = 0;
      synchronized (log) {
        for (byte[] f : b) {
          ByteBuffer buf = ByteBuffer.wrap(f);
          while (buf.hasRemaining()) {
            n += log.write(buf);
          }
        }
        log.force(false);
      }
      return n;
    });
  }

  private long runWriters(java.util.concurrent.Callable<Long> one) throws Exception {
    if (writers == 1) {
      return one.call();
    }
    List<java.util.concurrent.Future<Long>> fs = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      fs.add(pool.submit(one));
    }
    long n = 0;
    for (var f : fs) {
      n += f.get();
    }
    return n;
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    pool.shutdownNow();
    store.close();
    log.close();
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
