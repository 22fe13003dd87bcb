package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/*
 * Benchmark (not run in CI): time to full redundancy after one peer holding X bytes dies.
 *   ./mvnw -B -pl it verify -Dit.test=RepairBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *       -Dcairn.bench.repair.mib=2048
 * stores an incompressible image of that size with code:4+2 on 7 peers (grace 1 s), SIGKILLs one
 * holder and measures from DOWN to every chunk healthy. Prints the figures for docs/benchmarks/journal.md.
 */
class RepairBenchmarkIT {
  @TempDir
  Path root;

  private MiniGrid grid;

  @AfterEach
  void stop() {
    if (grid != null) {
      grid.close();
    }
  }

  @Test
  void timeToFullRedundancyAfterADeath() throws Exception {
    long mib = Long.getLong("cairn.bench.repair.mib", 0);
    assumeTrue(mib > 0, "set -Dcairn.bench.repair.mib=SIZE to run the repair benchmark");
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker("--repair-grace", "1s", "--repair-interval", "500ms", "--repair-jobs-per-peer",
        System.getProperty("cairn.bench.repair.jobs", "4"));
    List<MiniGrid.Node> peers = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      // inventories every 2 s: a piece rebuilt onto another peer counts once that peer lists it, which the figure includes
      peers.add(grid.startPeer("b" + i, "--id", "b" + i, "--quota", "20GiB", "--repair-rate",
          System.getProperty("cairn.bench.repair.rate", "0"), "--gc-interval", "2s"));
    }
    MiniGrid.await("7 peers", Duration.ofSeconds(60), () -> grid.peers().size() == 7);
    Path image = root.resolve("big.img");
    Random rnd = new Random(1);
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(image)) {
      for (long i = 0; i < mib; i++) {
        rnd.nextBytes(block);
        out.write(block);
      }
    }
    MiniGrid.Cli store = grid.cli("store", image.toString(), "--app", "bench", "--node", "n", "--redundancy", "code:4+2",
        "--compression", "none");
    assertThat(store.exit()).as(store.stderr()).isZero();
    JsonNode holders = grid.get("/api/v1/manifest?app=bench&node=n").json().get("chunks").elements().next().get("holders");
    String victim = holders.get(0).get("id").asText();
    MiniGrid.await("heartbeats carry the store", Duration.ofSeconds(20), () -> {
      long total = 0;
      for (JsonNode p : grid.peers()) {
        total += p.get("usedBytes").asLong();
      }
      return total == grid.get("/api/v1/durability").json().get("neededBytes").asLong();
    });
    long held = 0;
    for (JsonNode p : grid.peers()) {
      if (p.get("id").asText().equals(victim)) {
        held = p.get("usedBytes").asLong();
      }
    }
    peers.get(Integer.parseInt(victim.substring(1))).kill();
    MiniGrid.await("DOWN", Duration.ofSeconds(20), () -> "DOWN".equals(grid.stateOf(victim)));
    long t0 = System.nanoTime();
    MiniGrid.await("degraded", Duration.ofSeconds(20), () -> grid.get("/api/v1/durability").json().get("degraded").asLong() > 0);
    MiniGrid.await("healthy", Duration.ofMinutes(30), () -> {
      JsonNode d = grid.get("/api/v1/durability").json();
      return d.get("healthy").asLong() == d.get("chunks").asLong() && d.get("repairing").asInt() == 0;
    });
    double s = (System.nanoTime() - t0) / 1e9;
    JsonNode d = grid.get("/api/v1/durability").json();
    System.out.printf("repair benchmark: peer held %d bytes; full redundancy %.1f s after DOWN (grace 1 s included): "
        + "%.1f MB/s rebuilt; %d pieces, %d failed jobs%n", held, s, held / 1e6 / s, d.get("repairedFragments").asLong(),
        d.get("failedRepairs").asLong());
    assertThat(d.get("repairedBytes").asLong()).isEqualTo(held);
  }
}
