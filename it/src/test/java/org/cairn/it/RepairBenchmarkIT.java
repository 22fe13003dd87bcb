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
 * stores incompressible images of that size in all (parts of at most 256 MiB) with code:4+2 on 7 peers (grace 1 s), SIGKILLs one
 * holder and measures from DOWN to every chunk healthy. Prints the figures for docs/benchmarks/journal.md: MB/s rebuilt, the
 * CPU-seconds the tracker and the live peers spent from the kill to healthy (per rebuilt MB) and the load average meanwhile.
 * The tracker and peers run as users run them (TestJvm.Flags.DEPLOYED: the donor's launcher, java -jar for the tracker);
 * -Dcairn.bench.repair.jvm=suite runs them with the test suite's flags (C1 only) instead, -Dcairn.it.jvmFlags adds flags
 * after either, and -Dcairn.bench.repair.jfr=DIR records a JFR profile of each from just before the kill to healthy.
 */
class RepairBenchmarkIT {
  /** The largest image one store in the benchmark writes. */
  private static final long PART_MIB = 256;

  @TempDir
  Path root;

  private MiniGrid grid;

  @AfterEach
  void stop() {
    if (grid != null) {
      grid.close();
    }
  }

  /** The durability counts, or null when the tracker did not answer in time (a loaded machine): polled again. */
  private JsonNode durability() throws Exception {
    try {
      return grid.get("/api/v1/durability").json();
    } catch (java.net.http.HttpTimeoutException e) {
      return null;
    }
  }

  /** Each peer's repair bytes over the last day, as the tracker shows them. */
  private String repairTraffic() throws Exception {
    StringBuilder out = new StringBuilder();
    for (JsonNode p : grid.peers()) {
      out.append(p.get("id").asText()).append('=').append(p.path("traffic").path("repairLastDay").asText("-")).append(' ');
    }
    return out.toString().trim();
  }

  @Test
  void timeToFullRedundancyAfterADeath() throws Exception {
    long mib = Long.getLong("cairn.bench.repair.mib", 0);
    assumeTrue(mib > 0, "set -Dcairn.bench.repair.mib=SIZE to run the repair benchmark");
    String jvm = System.getProperty("cairn.bench.repair.jvm", "deployed");
    if (!jvm.equals("deployed") && !jvm.equals("suite")) {
      throw new IllegalArgumentException("cairn.bench.repair.jvm is deployed or suite, not '" + jvm + "'");
    }
    grid = new MiniGrid(root, Duration.ofSeconds(1), jvm.equals("suite") ? TestJvm.Flags.SUITE : TestJvm.Flags.DEPLOYED);
    grid.startTracker("--repair-grace", "1s", "--repair-interval", "500ms", "--repair-jobs-per-peer",
        System.getProperty("cairn.bench.repair.jobs", "4"));
    List<MiniGrid.Node> peers = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      // inventories every 2 s: a piece rebuilt onto another peer counts once that peer lists it, which the figure includes
      peers.add(grid.startPeer("b" + i, "--id", "b" + i, "--quota", "20GiB", "--repair-rate",
          System.getProperty("cairn.bench.repair.rate", "0"), "--gc-interval", "2s"));
    }
    MiniGrid.await("7 peers", Duration.ofSeconds(60), () -> grid.peers().size() == 7);
    // stored as images of at most PART_MIB each (nodes n0, n1, ...): one store of a GiB outlasts MiniGrid's five
    // minutes per command on a loaded two-core machine; what is measured is the repair, not the store
    Random rnd = new Random(1);
    byte[] block = new byte[1 << 20];
    for (int part = 0; part * PART_MIB < mib; part++) {
      Path image = root.resolve("big" + part + ".img");
      try (OutputStream out = Files.newOutputStream(image)) {
        for (long i = part * PART_MIB; i < Math.min(mib, (part + 1) * PART_MIB); i++) {
          rnd.nextBytes(block);
          out.write(block);
        }
      }
      MiniGrid.Cli store = grid.cli("store", image.toString(), "--app", "bench", "--node", "n" + part, "--redundancy",
          "code:4+2", "--compression", "none");
      assertThat(store.exit()).as(store.stderr()).isZero();
      Files.delete(image);
    }
    JsonNode holders = grid.get("/api/v1/manifest?app=bench&node=n0").json().get("chunks").elements().next().get("holders");
    String victim = holders.get(0).get("id").asText();
    MiniGrid.await("heartbeats carry the store", Duration.ofSeconds(20), () -> {
      long total = 0;
      for (JsonNode p : grid.peers()) {
        total += p.get("usedBytes").asLong();
      }
      JsonNode d = durability();
      return d != null && total == d.get("neededBytes").asLong();
    });
    long held = 0;
    for (JsonNode p : grid.peers()) {
      if (p.get("id").asText().equals(victim)) {
        held = p.get("usedBytes").asLong();
      }
    }
    MiniGrid.Node dead = peers.get(Integer.parseInt(victim.substring(1)));
    List<MiniGrid.Node> live = new ArrayList<>(peers);
    live.remove(dead);
    live.add(0, grid.tracker());
    System.out.printf("repair benchmark: tracker ran %s%nrepair benchmark: peers ran %s%n", commandLine(grid.tracker()),
        commandLine(live.get(1)));
    Profiles profiles = Profiles.start(System.getProperty("cairn.bench.repair.jfr"), live);
    double[] cpu0 = cpuSeconds(live);
    Load load = new Load();
    dead.kill();
    MiniGrid.await("DOWN", Duration.ofSeconds(20), () -> "DOWN".equals(grid.stateOf(victim)));
    long t0 = System.nanoTime();
    MiniGrid.await("degraded", Duration.ofSeconds(20), () -> {
      JsonNode d = durability();
      return d != null && d.get("degraded").asLong() > 0;
    });
    long[] ninety = {0}; // when 90 % of the bytes were rebuilt: the bulk rate, apart from a tail of jobs planned again
    long goal = held;
    MiniGrid.await("healthy", Duration.ofMinutes(30), () -> {
      load.sample();
      JsonNode d = durability();
      if (d != null && ninety[0] == 0 && d.get("repairedBytes").asLong() * 10 >= goal * 9) {
        ninety[0] = System.nanoTime();
      }
      return d != null && d.get("healthy").asLong() == d.get("chunks").asLong() && d.get("repairing").asInt() == 0;
    });
    double s = (System.nanoTime() - t0) / 1e9;
    double[] cpu = cpuSeconds(live);
    load.sample();
    profiles.dump();
    double trackerCpu = cpu[0] - cpu0[0];
    double allCpu = 0;
    for (int i = 0; i < cpu.length; i++) {
      allCpu += cpu[i] - cpu0[i];
    }
    System.out.printf("repair benchmark: CPU from the kill to healthy: %.1f CPU-s (tracker %.1f, 6 peers %.1f), "
        + "%.4f CPU-s per rebuilt MB; load average (1 min) %s%n", allCpu, trackerCpu, allCpu - trackerCpu,
        allCpu / (held / 1e6), load);
    double s90 = ((ninety[0] == 0 ? System.nanoTime() : ninety[0]) - t0) / 1e9;
    System.out.printf("repair benchmark: 90 %% of the bytes rebuilt %.1f s after DOWN: %.1f MB/s%n", s90, 0.9 * held / 1e6 / s90);
    System.out.printf("repair benchmark: peers' repair traffic over the last day: %s%n", repairTraffic());
    JsonNode[] last = new JsonNode[1];
    MiniGrid.await("the final counts", Duration.ofSeconds(60), () -> (last[0] = durability()) != null);
    JsonNode d = last[0];
    System.out.printf("repair benchmark: peer held %d bytes; full redundancy %.1f s after DOWN (grace 1 s included): "
        + "%.1f MB/s rebuilt; %d pieces, %d failed jobs%n", held, s, held / 1e6 / s, d.get("repairedFragments").asLong(),
        d.get("failedRepairs").asLong());
    assertThat(d.get("repairedBytes").asLong()).isEqualTo(held);
  }

  /** The JVM's command line up to the program's arguments (what it ran with), from the process itself. */
  private static String commandLine(MiniGrid.Node node) {
    ProcessHandle.Info info = node.process().info();
    List<String> out = new ArrayList<>(List.of(info.command().orElse("?")));
    for (String a : info.arguments().orElse(new String[0])) {
      out.add(a);
      if (a.endsWith(".jar")) {
        break;
      }
    }
    return String.join(" ", out);
  }

  /** Each process's CPU time so far (user + system, all its threads), in seconds. */
  private static double[] cpuSeconds(List<MiniGrid.Node> nodes) {
    double[] out = new double[nodes.size()];
    for (int i = 0; i < out.length; i++) {
      java.time.Duration d = nodes.get(i).process().info().totalCpuDuration()
          .orElseThrow(() -> new IllegalStateException("no CPU time for a grid process: the benchmark reads /proc (Linux)"));
      out[i] = d.toNanos() / 1e9;
    }
    return out;
  }

  /** The 1-minute load average's lowest and highest value while it was sampled. */
  private static final class Load {
    private double low = Double.MAX_VALUE;
    private double high;

    Load() throws java.io.IOException {
      sample();
    }

    void sample() throws java.io.IOException {
      double now = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
      low = Math.min(low, now);
      high = Math.max(high, now);
    }

    @Override
    public String toString() {
      return String.format("%.1f-%.1f", low, high);
    }
  }

  /** JFR recordings ({@code settings=profile}) of the grid's processes, started and dumped with {@code jcmd}; none without a directory. */
  private record Profiles(Path dir, List<MiniGrid.Node> nodes) {
    static Profiles start(String dir, List<MiniGrid.Node> nodes) throws Exception {
      if (dir == null || dir.isBlank()) {
        return new Profiles(null, nodes);
      }
      Profiles p = new Profiles(Files.createDirectories(Path.of(dir)), nodes);
      for (MiniGrid.Node n : nodes) {
        p.jcmd(n, "JFR.start", "name=repair", "settings=profile");
      }
      return p;
    }

    void dump() throws Exception {
      if (dir == null) {
        return;
      }
      for (MiniGrid.Node n : nodes) {
        jcmd(n, "JFR.stop", "name=repair", "filename=" + dir.resolve(n.process().pid() + "-" + name(n) + ".jfr").toAbsolutePath());
      }
      System.out.printf("repair benchmark: JFR recordings in %s%n", dir.toAbsolutePath());
    }

    private static String name(MiniGrid.Node n) {
      return n.peerId() == null ? "tracker" : n.peerId();
    }

    private void jcmd(MiniGrid.Node n, String... command) throws Exception {
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
          Long.toString(n.process().pid())));
      cmd.addAll(List.of(command));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
      }
    }
  }
}
