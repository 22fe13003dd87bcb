package org.cairn.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cairn.cli.grid.LocalGrid;

/*
 * `cairn benchmark e2e` on the job's path (the default): every store and fetch is a new
 * `cairn` process started through the build's launcher (see entry()), as a job script runs it, once handed to a running `cairn agent` (warmed up, as one
 * started in a job's prologue is) and once doing the work itself. Per command: wall seconds, and CPU
 * seconds of the command's process (the shell's `times` for its child), of the agent, of all peers
 * and of the tracker (their deltas around the command).
 */
final class JobPath {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] WAYS = {"agent", "process"};

  /** What the benchmark reads of a {@code cairn store --json} line (the rest of its fields are ignored). */
  @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
  record Stored(long size, long chunks, long newChunks) {}

  private final EndToEnd.Options o;
  private final Consumer<StageResult> sink;
  private final String classPath = System.getProperty("java.class.path");
  private final String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();

  /** How each command starts (see {@link #entry}). */
  private final List<String> entry = entry();

  JobPath(EndToEnd.Options o, Consumer<StageResult> sink) {
    this.o = o;
    this.sink = sink;
  }

  /**
   * How a user starts {@code cairn}: the build's launcher beside the jar (its class-data-sharing archives, its JIT flags
   * for one-command JVMs, the native thin client), run with this JVM ({@code JAVA_HOME}); without one (a jar copied
   * elsewhere), {@code java -cp JAR org.cairn.cli.Main}.
   */
  private List<String> entry() {
    if (!classPath.contains(java.io.File.pathSeparator)) {
      Path launcher = Path.of(classPath).toAbsolutePath().resolveSibling("cairn");
      if (Files.isRegularFile(launcher)) {
        return List.of("sh", launcher.toString());
      }
    }
    return List.of(javaBin, "-cp", classPath, "org.cairn.cli.Main");
  }

  private boolean throughLauncher() {
    return entry.get(0).equals("sh");
  }

  private ProcessBuilder cairn(List<String> args) {
    List<String> cmd = new ArrayList<>(entry);
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    return pb;
  }

  void run() throws Exception {
    Path gridDir = Files.createDirectories(o.workDir().resolve("grid"));
    try (LocalGrid grid = LocalGrid.start(gridDir, o.peers(), 64L << 30, Duration.ofSeconds(1))) {
      Path socket = o.workDir().resolve("agent.sock");
      Process agent = startAgent(grid, socket);
      try {
        if (o.warmUpBytes() > 0) {
          Path warm = Files.write(o.workDir().resolve("warm-up.img"), org.cairn.core.image.MemoryImages.image(1_000_003, o.warmUpBytes()));
          for (String way : WAYS) {
            command(grid, agent, way, "store", warm.toString(), "--app", "bench-warm-up-" + way, "--node", "rank0");
          }
          sink.accept(new StageResult("e2e-warm-up").with("tool", "cairn").with("bytes", o.warmUpBytes()));
        }
        for (int i = 0; i < o.images().size(); i++) {
          Path image = o.images().get(i);
          for (String way : WAYS) {
            Measured m = command(grid, agent, way, "store", image.toString(), "--app", "bench-" + way, "--node", "rank0", "--json",
                "--redundancy", o.redundancy().spec(), "--compression", o.compressor().spec(), "--threads", Integer.toString(o.threads()));
            Stored r = JSON.readValue(m.stdout(), Stored.class);
            sink.accept(m.row(new StageResult("e2e-store").with("tool", "cairn (" + way + ")").with("image", i + 1)
                .with("bytes", r.size()).with("newChunks", r.newChunks()).with("chunks", r.chunks()), r.size()));
          }
        }
        Path last = o.images().get(o.images().size() - 1);
        for (String way : WAYS) {
          Path out = o.workDir().resolve("cairn-restored-" + way + ".img");
          Measured m = command(grid, agent, way, "fetch", "--app", "bench-" + way, "--node", "rank0", "-o", out.toString());
          if (Files.mismatch(out, last) != -1) {
            throw new IOException(out + " differs from " + last);
          }
          sink.accept(m.row(new StageResult("e2e-fetch").with("tool", "cairn (" + way + ")").with("bytes", Files.size(out)), Files.size(out)));
          Files.delete(out);
        }
      } finally {
        agent.destroy();
        if (!agent.waitFor(30, TimeUnit.SECONDS)) {
          agent.destroyForcibly();
        }
      }
    }
  }

  private Process startAgent(LocalGrid grid, Path socket) throws IOException, InterruptedException {
    Path log = o.workDir().resolve("agent.log");
    Process p = cairn(List.of("--tracker", grid.trackerUrl(), "--token-file", grid.tokenFile().toString(), "--key-dir",
        o.workDir().resolve("keys").toString(), "agent", "--socket", socket.toString(), "--client", "bench-client"))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!(Files.exists(socket) && Files.readString(log).contains("warmed up"))) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new IOException("the agent did not start and warm up: " + Files.readString(log));
      }
      Thread.sleep(100);
    }
    return p;
  }

  /** What one command cost. */
  record Measured(String stdout, double seconds, double commandCpu, double agentCpu, double peersCpu, double trackerCpu, boolean launcher) {
    StageResult row(StageResult r, long bytes) {
      return r.with("launcher", launcher).with("seconds", round(seconds)).with("mbPerSec", round(bytes / 1e6 / seconds)).with("commandCpuSeconds", round(commandCpu))
          .with("agentCpuSeconds", round(agentCpu)).with("peersCpuSeconds", round(peersCpu)).with("trackerCpuSeconds", round(trackerCpu));
    }
  }

  /** Runs one `cairn` process (through the agent or not) to completion, under sh so `times` gives its CPU. */
  private Measured command(LocalGrid grid, Process agent, String way, String... args) throws Exception {
    Path times = Files.createTempFile(o.workDir(), "times", ".txt");
    Path out = Files.createTempFile(o.workDir(), "out", ".txt");
    Path err = Files.createTempFile(o.workDir(), "err", ".txt");
    List<String> cmd = new ArrayList<>(List.of("sh", "-c", "\"$@\"; rc=$?; times > \"$CAIRN_BENCH_TIMES\"; exit $rc", "sh"));
    cmd.addAll(entry);
    if (way.equals("process")) {
      cmd.addAll(List.of("--tracker", grid.trackerUrl(), "--token-file", grid.tokenFile().toString()));
    }
    cmd.addAll(List.of("--key-dir", o.workDir().resolve("keys").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    Map<String, String> env = pb.environment();
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("CAIRN_BENCH_TIMES", times.toString());
    env.put("CAIRN_CLIENT_ID", "bench-client");
    env.remove("CAIRN_AGENT_SOCKET");
    env.put("CAIRN_AGENT", "off"); // the per-process way starts no agent of the user's (the agent way names its own)
    if (way.equals("agent")) {
      env.put("CAIRN_AGENT_SOCKET", o.workDir().resolve("agent.sock").toString());
    }
    double[] before = cpu(grid, agent);
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(1, TimeUnit.HOURS)) {
      p.destroyForcibly();
      throw new IOException("cairn " + String.join(" ", args) + " did not finish within an hour");
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (p.exitValue() != 0) {
      throw new IOException("cairn " + String.join(" ", args) + " (" + way + ") failed: " + Files.readString(err));
    }
    Thread.sleep(500); // the peers' last acknowledgements and the tracker's bookkeeping
    double[] after = cpu(grid, agent);
    double commandCpu = childCpu(Files.readString(times));
    String stdout = Files.readString(out);
    for (Path f : List.of(times, out, err)) {
      Files.delete(f);
    }
    return new Measured(stdout, seconds, commandCpu, after[0] - before[0], after[1] - before[1], after[2] - before[2], throughLauncher());
  }

  /** {agent, all peers, tracker} CPU seconds so far. */
  private static double[] cpu(LocalGrid grid, Process agent) {
    double[] c = EndToEnd.cpuSeconds(grid);
    return new double[] {EndToEnd.cpuOf(agent), c[1], c[2]};
  }

  /** The children's line of `times` ("0m0.120s 0m0.030s"): user + system seconds. */
  static double childCpu(String times) {
    String[] lines = times.strip().split("\n");
    double sum = 0;
    for (String f : lines[lines.length - 1].trim().split("\\s+")) {
      Matcher m = Pattern.compile("(\\d+)m([\\d.]+)s").matcher(f);
      if (m.matches()) {
        sum += Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2));
      }
    }
    return sum;
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
