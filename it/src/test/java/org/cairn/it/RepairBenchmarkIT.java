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
    store(mib);
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
    Meter meter = new Meter(live, held);
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
      JsonNode d = durability();
      meter.sample(d == null ? -1 : d.get("repairedBytes").asLong());
      if (d != null && ninety[0] == 0 && d.get("repairedBytes").asLong() * 10 >= goal * 9) {
        ninety[0] = System.nanoTime();
      }
      return d != null && d.get("healthy").asLong() == d.get("chunks").asLong() && d.get("repairing").asInt() == 0;
    });
    double s = (System.nanoTime() - t0) / 1e9;
    meter.report();
    profiles.dump();
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

  /**
   * Stores {@code mib} MiB of seeded random bytes as images of at most PART_MIB each (nodes n0, n1, ...): one store of a
   * GiB outlasts MiniGrid's five minutes per command on a loaded two-core machine; what is measured is the repair.
   */
  private void store(long mib) throws Exception {
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

  /**
   * The CPU the tracker and the live peers spend from the kill to healthy, in all and per rebuilt MB; the JIT compilers'
   * share; the bulk (from 50 to 90 % of the bytes rebuilt, once most of the repair path is compiled); the load average.
   */
  private static final class Meter {
    private final List<MiniGrid.Node> live;
    private final long held;
    private final double[] start;
    private final Load load = new Load();
    private final ThreadCpu threads;
    /** CPU-s of all, JIT CPU-s and bytes rebuilt when 50 %, then 90 %, of the bytes were rebuilt. */
    private double[] half;
    private double[] ninety;

    Meter(List<MiniGrid.Node> live, long held) throws java.io.IOException {
      this.live = live;
      this.held = held;
      this.start = cpuSeconds(live);
      this.threads = new ThreadCpu(live);
    }

    /** Samples the load and compiler threads; marks the bulk's ends as {@code repaired} bytes (-1: unknown) pass them. */
    void sample(long repaired) throws java.io.IOException {
      load.sample();
      threads.sample();
      if (half == null && repaired * 2 >= held) {
        half = mark(repaired);
      } else if (half != null && ninety == null && repaired * 10 >= held * 9) {
        ninety = mark(repaired);
      }
    }

    private double[] mark(long repaired) {
      return new double[] {total(cpuSeconds(live)), threads.compilers(), repaired};
    }

    private double total(double[] now) {
      double sum = 0;
      for (int i = 0; i < now.length; i++) {
        sum += now[i] - start[i];
      }
      return sum;
    }

    void report() throws java.io.IOException {
      double[] now = cpuSeconds(live);
      sample(-1);
      double all = total(now);
      double tracker = now[0] - start[0];
      double mb = held / 1e6;
      System.out.printf("repair benchmark: CPU from the kill to healthy: %.1f CPU-s (tracker %.1f, 6 peers %.1f), "
          + "%.4f CPU-s per rebuilt MB; load average (1 min) %s%n", all, tracker, all - tracker, all / mb, load);
      System.out.printf("repair benchmark: of which the JIT compilers' threads %.1f CPU-s (tracker %.1f); without them "
          + "%.4f CPU-s per rebuilt MB%n", threads.compilers(), threads.trackerCompilers(), (all - threads.compilers()) / mb);
      System.out.printf("repair benchmark: the peers' CPU-s by thread: %s%n", threads.peersByKind());
      if (half != null && ninety != null && ninety[2] > half[2]) {
        double bulkMb = (ninety[2] - half[2]) / 1e6;
        System.out.printf("repair benchmark: bulk, 50 to 90 %% rebuilt (%.0f MB): %.4f CPU-s per rebuilt MB, %.4f without "
            + "the JIT compilers%n", bulkMb, (ninety[0] - half[0]) / bulkMb, (ninety[0] - half[0] - ninety[1] + half[1]) / bulkMb);
      }
    }
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

  /**
   * CPU time of the processes' threads since this was made, by kind (the thread's name with digits as N), from
   * {@code /proc/PID/task/TID/stat} (utime + stime, clock ticks of 1/100 s): where the CPU went, measured, where a
   * profile's samples on a loaded machine also count threads that wait for a core. The JIT compilers' threads
   * ({@code C1 CompilerThre}, {@code C2 CompilerThre}) are a cost a peer pays once per start, not per rebuilt MB, and a
   * benchmark's peers are young, so they are split out. Threads that end (idle compiler threads do) count up to their
   * last sample; threads that start and end between two samples are missed.
   */
  private static final class ThreadCpu {
    private final List<MiniGrid.Node> nodes;
    /** Per "pid/tid": the thread's kind, ticks at the first sample and at the last. */
    private final java.util.Map<String, Object[]> threads = new java.util.HashMap<>();

    ThreadCpu(List<MiniGrid.Node> nodes) throws java.io.IOException {
      this.nodes = nodes;
      sample();
      threads.values().forEach(t -> t[1] = t[2]);
    }

    void sample() throws java.io.IOException {
      for (MiniGrid.Node n : nodes) {
        Path tasks = Path.of("/proc", Long.toString(n.process().pid()), "task");
        try (java.util.stream.Stream<Path> ids = Files.list(tasks)) {
          for (Path task : (Iterable<Path>) ids::iterator) {
            String stat;
            try {
              stat = Files.readString(task.resolve("stat"));
            } catch (java.nio.file.NoSuchFileException e) {
              continue; // the thread ended meanwhile
            }
            String kind = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "N");
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // f[0] is field 3, the state
            long now = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime: fields 14 and 15
            threads.computeIfAbsent(n.process().pid() + "/" + task.getFileName(), k -> new Object[] {kind, 0L, 0L})[2] = now;
          }
        } catch (java.nio.file.NoSuchFileException e) {
          // the process ended: what was sampled stands
        }
      }
    }

    private static boolean compiler(String kind) {
      return kind.startsWith("CN CompilerThre");
    }

    private double seconds(java.util.function.Predicate<String> pid, java.util.function.Predicate<String> kind) {
      long ticks = 0;
      for (var e : threads.entrySet()) {
        if (pid.test(e.getKey().substring(0, e.getKey().indexOf('/'))) && kind.test((String) e.getValue()[0])) {
          ticks += (Long) e.getValue()[2] - (Long) e.getValue()[1];
        }
      }
      return ticks / 100.0;
    }

    /** The JIT compilers' CPU-s in all processes. */
    double compilers() {
      return seconds(pid -> true, ThreadCpu::compiler);
    }

    double trackerCompilers() {
      String tracker = Long.toString(nodes.get(0).process().pid());
      return seconds(tracker::equals, ThreadCpu::compiler);
    }

    /** The peers' CPU-s by thread kind, the most first. */
    String peersByKind() {
      String tracker = Long.toString(nodes.get(0).process().pid());
      java.util.Map<String, Double> byKind = new java.util.TreeMap<>();
      for (Object[] t : threads.values()) {
        byKind.merge((String) t[0], 0.0, Double::sum);
      }
      StringBuilder out = new StringBuilder();
      byKind.keySet().stream()
          .map(k -> java.util.Map.entry(k, seconds(pid -> !pid.equals(tracker), k::equals)))
          .filter(e -> e.getValue() >= 0.05)
          .sorted(java.util.Map.Entry.<String, Double>comparingByValue().reversed())
          .forEach(e -> out.append(String.format("%s %.1f, ", e.getKey(), e.getValue())));
      return out.length() == 0 ? "-" : out.substring(0, out.length() - 2);
    }
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
