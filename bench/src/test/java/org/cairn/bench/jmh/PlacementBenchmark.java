package org.cairn.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cairn.core.availability.HostState;
import org.cairn.core.placement.Candidate;
import org.cairn.core.placement.FalconPlacement;
import org.cairn.core.placement.NotEnoughHostsException;
import org.cairn.core.placement.Placement;
import org.cairn.core.placement.PlacementRequest;
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

/** FALCON placement among N candidates, m+k = 6 with 6 alternates (target: < 10 ms at N = 1000). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PlacementBenchmark {
  @Param({"100", "1000", "10000"})
  int hosts;

  private List<Candidate> candidates;
  private PlacementRequest request;
  private final FalconPlacement falcon = new FalconPlacement();

  @Setup
  public void setup() {
    Random random = new Random(1);
    HostState[] states = HostState.values();
    candidates = new ArrayList<>();
    for (int i = 0; i < hosts; i++) {
      candidates.add(new Candidate("host-" + i, states[random.nextInt(states.length)], 1L << 40,
          random.nextDouble() * 2, (1 + random.nextInt(100)) * 1e6));
    }
    request = new PlacementRequest(1L << 30, 4, 2, 3600, 600, 1800, 12.5e6, 6);
  }

  @Benchmark
  public Placement place() throws NotEnoughHostsException {
    return falcon.place(candidates, request);
  }
}
