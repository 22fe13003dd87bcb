package org.cairn.tracker.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.history.History;
import org.cairn.tracker.store.TrackerStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * History at the scale: 10,000 storage hosts and 100 compute hosts x 14 days of one-minute
 * slots (20,160 slots each), written in the real block format. Measures reading a host's 7-day
 * series, computing CRLS of 1,000 hosts against one compute host over 7 days (what a placement
 * refresh does), and sampling one slot for all 10,000 hosts. Prints the database's size on disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class HistoryBenchmark {
  static final int HOSTS = 10_000;
  static final int DAYS = 14;

  private Path dir;
  private TrackerStore store;
  private History history;
  private MutableClock clock;
  private long now;
  private long weekSlots;
  private final Crls crls = Crls.defaults();
  private final Map<String, HostState> allHosts = new HashMap<>();
  private int cursor;

  @Setup(Level.Trial)
  public void build() throws IOException {
    dir = Files.createTempDirectory("cairn-history-bench");
    store = TrackerStore.open(dir);
    long start = 1_800_000_000_000L;
    clock = new MutableClock(start + DAYS * 86_400_000L);
    history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(DAYS));
    now = history.currentSlot();
    weekSlots = 7 * 1440;
    SplittableRandom random = new SplittableRandom(7);
    long firstBlock = (now - DAYS * 1440L) / History.BLOCK;
    byte[] block = new byte[History.BLOCK];
    for (int h = 0; h < HOSTS + 100; h++) {
      boolean storage = h < HOSTS;
      String id = storage ? "peer-" + h : "job-" + (h - HOSTS);
      for (long b = firstBlock; b <= now / History.BLOCK; b++) {
        fill(block, random, storage);
        history.importBlock(storage, id, b, block);
      }
      if (storage) {
        allHosts.put(id, HostState.RUNNING);
      }
    }
    long bytes;
    try (Stream<Path> files = Files.walk(dir)) {
      bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    System.out.printf("%n# history of %d hosts x %d days: %.1f MB on disk (%d bytes of slots)%n", HOSTS + 100, DAYS,
        bytes / 1e6, (long) (HOSTS + 100) * (DAYS + 1) * History.BLOCK);
  }

  /** Runs of states, as desktops have: long RUNNING stretches, some LOADED/BUSY, evenings DOWN. */
  private static void fill(byte[] block, SplittableRandom random, boolean storage) {
    int i = 0;
    while (i < block.length) {
      int run = 1 + random.nextInt(120);
      byte code;
      int r = random.nextInt(100);
      if (storage) {
        code = (byte) (r < 70 ? HostState.RUNNING.code() : r < 85 ? HostState.LOADED.code() : r < 92 ? HostState.BUSY.code()
            : HostState.DOWN.code());
      } else {
        code = r < 90 ? StateSeries.UP : StateSeries.COMPUTE_DOWN;
      }
      for (int j = 0; j < run && i < block.length; j++) {
        block[i++] = code;
      }
    }
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    store.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public StateSeries readOneHostWeek() throws IOException {
    cursor = (cursor + 7919) % HOSTS;
    return history.storageSeries("peer-" + cursor, now - weekSlots, now + 1);
  }

  @Benchmark
  public double crlsOf1000HostsOverAWeek() throws IOException {
    StateSeries job = history.computeSeries("job-3", now - weekSlots, now + 1);
    double sum = 0;
    for (int h = 0; h < 1000; h++) {
      sum += crls.score(history.storageSeries("peer-" + ((h * 7 + cursor) % HOSTS), now - weekSlots, now + 1), job,
          now - weekSlots, now + 1);
    }
    cursor++;
    return sum;
  }

  @Benchmark
  public int sampleAll10000Hosts() throws IOException {
    clock.advance(Duration.ofMinutes(1));
    history.sample(allHosts, Map.of());
    return allHosts.size();
  }
}
