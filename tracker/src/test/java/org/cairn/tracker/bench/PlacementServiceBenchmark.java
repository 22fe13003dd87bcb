package org.cairn.tracker.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.cairn.core.api.member.RegisterRequest;
import org.cairn.core.availability.Crls;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementPolicy;
import org.cairn.core.placement.PlacementRequest;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.history.History;
import org.cairn.tracker.membership.Membership;
import org.cairn.tracker.placement.PlacementService;
import org.cairn.tracker.store.TrackerStore;
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
 * Placement at the tracker over 10,000 registered peers with a week of one-minute history each (docs/simulation.md,
 * "Findings"), as the sim's client asks for it (1 GiB, 4+2, 6 alternates): {@code place} with the client's scores
 * current (the request path), and {@code placeWithScoresRecomputed} with the clock moved past the refresh period first,
 * so the request computes the scores itself (what the request that refreshed them paid before they were refreshed in
 * the background; the scheduler's cost now). {@code client}: "sim-client" has no compute history (the simulator's
 * client), "job-3" a week of it (a real client's job). {@code peerViews}: every peer's view sorted by id, which the
 * placement route built once a request (twice in all, three times with the refresh) before it read standings.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class PlacementServiceBenchmark {
  static final int PEERS = 10_000;
  private static final PlacementRequest REQUEST = new PlacementRequest(1L << 30, 4, 2, 3600, 600, 0, 12.5e6, 6);

  @Param({"sim-client", "job-3"})
  public String client;

  private Path dir;
  private TrackerStore store;
  private MutableClock clock;
  private Membership membership;
  private PlacementService placement;
  private final PlacementPolicy falcon = PlacementPolicy.parse("falcon");

  @Setup(Level.Trial)
  public void build() throws IOException, NotEnoughHostsException {
    dir = Files.createTempDirectory("cairn-placement-bench");
    store = TrackerStore.open(dir);
    clock = new MutableClock(1_800_000_000_000L);
    membership = new Membership(store, clock, Duration.ofDays(365));
    History history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
    placement = new PlacementService(store, membership, history, clock, Crls.defaults(), Duration.ofDays(7), Duration.ofSeconds(10));
    SplittableRandom random = new SplittableRandom(7);
    HostState[] states = {HostState.RUNNING, HostState.RUNNING, HostState.RUNNING, HostState.LOADED, HostState.BUSY};
    long now = history.currentSlot();
    byte[] block = new byte[History.BLOCK];
    for (int p = 0; p < PEERS; p++) {
      String id = "peer-" + p;
      long quota = (10L << 30) + random.nextLong(100L << 30);
      membership.register(new RegisterRequest(id, "10." + p / 65536 + "." + (p / 256) % 256 + "." + p % 256 + ":7600",
          states[random.nextInt(states.length)].name(), quota, 0, quota, 0, false, "bench"));
      for (long b = (now - 7 * 1440) / History.BLOCK; b <= now / History.BLOCK; b++) {
        fill(block, random, true);
        history.importBlock(true, id, b, block);
      }
    }
    for (long b = (now - 7 * 1440) / History.BLOCK; b <= now / History.BLOCK; b++) {
      fill(block, random, false);
      history.importBlock(false, "job-3", b, block);
    }
    placement.place(client, falcon, REQUEST);
  }

  /** Runs of states, as HistoryBenchmark fills them. */
  private static void fill(byte[] block, SplittableRandom random, boolean storage) {
    int i = 0;
    while (i < block.length) {
      int run = 1 + random.nextInt(120);
      int r = random.nextInt(100);
      byte code = storage ? (byte) (r < 70 ? HostState.RUNNING.code() : r < 85 ? HostState.LOADED.code()
          : r < 92 ? HostState.BUSY.code() : HostState.DOWN.code()) : r < 90 ? StateSeries.UP : StateSeries.COMPUTE_DOWN;
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
  public Placement place() throws IOException, NotEnoughHostsException {
    return placement.place(client, falcon, REQUEST);
  }

  @Benchmark
  public Placement placeWithScoresRecomputed() throws IOException, NotEnoughHostsException {
    clock.advance(Duration.ofSeconds(10));
    return placement.place(client, falcon, REQUEST);
  }

  @Benchmark
  public int peerViews() {
    return membership.peers().size();
  }
}
