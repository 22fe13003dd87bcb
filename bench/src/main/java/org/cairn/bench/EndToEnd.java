package org.cairn.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.cairn.cli.grid.LocalGrid;
import org.cairn.client.Grid;
import org.cairn.client.fetch.Fetcher;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.read.ChunkReader;
import org.cairn.core.security.GridToken;

/*
 * `cairn benchmark e2e`: a checkpoint series stored and fetched on a local grid (a tracker
 * and N peers as child processes), against `borg create --compression lz4` / `borg extract` and
 * `restic backup` / `restic restore` on the same image files in the same run, when those are
 * installed. Per image: seconds, MB/s of image, and how much each store grew the stored data (Cairn:
 * the bytes of all n pieces of the new chunks, and that over n/m; borg and restic: repository size).
 */
public final class EndToEnd {
  /** What to run. */
  public record Options(List<Path> images, int peers, Redundancy redundancy, Compressor compressor, int threads, Path workDir,
      List<String> compare, int warmUpBytes, boolean inProcess) {}

  private final Options o;
  private final Consumer<StageResult> sink;

  public EndToEnd(Options o, Consumer<StageResult> sink) {
    this.o = o;
    this.sink = sink;
  }

  /** Tools among the requested ones that are on the PATH. */
  public static List<String> available(List<String> wanted) {
    List<String> out = new ArrayList<>();
    for (String t : wanted) {
      for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
        if (Files.isExecutable(Path.of(dir, t))) {
          out.add(t);
          break;
        }
      }
    }
    return out;
  }

  public void run() throws Exception {
    long size = Files.size(o.images().get(o.images().size() - 1));
    if (o.inProcess()) {
      cairn();
    } else {
      new JobPath(o, sink).run();
    }
    for (String tool : o.compare()) {
      switch (tool) {
        case "borg" -> borg();
        case "restic" -> restic();
        default -> throw new IllegalArgumentException("--compare takes borg and/or restic, not '" + tool + "'");
      }
    }
    sink.accept(new StageResult("e2e-note").with("images", o.images().size()).with("lastImageBytes", size)
        .with("note", "ratios: compare the store and fetch rows of each tool for the same image"));
  }

  private void cairn() throws Exception {
    Path gridDir = Files.createDirectories(o.workDir().resolve("grid"));
    try (LocalGrid grid = LocalGrid.start(gridDir, o.peers(), 64L << 30, Duration.ofSeconds(1))) {
      try (Grid client = Grid.open(URI.create(grid.trackerUrl()), GridToken.readFile(grid.tokenFile()), Duration.ofSeconds(30))) {
        if (o.warmUpBytes() > 0) {
          warmUp(grid, client);
        }
        for (int i = 0; i < o.images().size(); i++) {
          Path image = o.images().get(i);
          StoreOutcome r;
          double[] cpu0 = cpuSeconds(grid);
          try (InputStream in = Files.newInputStream(image)) {
            r = client.store(in, Files.size(image), new StoreOptions("bench", "rank0", 0, o.redundancy(), o.compressor(),
                ChunkSize.DEFAULT, o.threads(), "falcon", ImageSource.FILE, "bench-client"));
          }
          double[] cpu = minus(cpuSeconds(grid), cpu0);
          List<VersionRow> versions = client.versions("bench", "rank0");
          long stored = versions.get(versions.size() - 1).storedBytes();
          sink.accept(new StageResult("e2e-store").with("tool", "cairn").with("image", i + 1).with("bytes", r.size())
              .with("seconds", round(r.seconds())).with("mbPerSec", round(r.size() / 1e6 / r.seconds()))
              .with("newChunks", r.newChunks()).with("chunks", r.chunks()).with("growthBytes", stored)
              .with("growthBytesOneCopy", stored * o.redundancy().dataFragments() / o.redundancy().totalFragments())
              .with("clientCpuSeconds", round(cpu[0])).with("peersCpuSeconds", round(cpu[1])).with("trackerCpuSeconds", round(cpu[2])));
        }
        // the default read (every holder asked, FALCON's any m of n), then hedged (m holders, one more when slow).
        // The first fetch in this JVM also compiles the fetch path (measured: about twice the client's CPU of a
        // later one), so the default read runs twice and the second is the one to compare; the stores before
        // it are likewise warm from image 2 on
        String[] labels = {"cairn, first fetch in this JVM", "cairn", "cairn --read hedged"};
        ChunkReader.Mode[] modes = {ChunkReader.Mode.ALL, ChunkReader.Mode.ALL, ChunkReader.Mode.HEDGED};
        for (int fi = 0; fi < modes.length; fi++) {
          Fetcher.Options fetchOptions = new Fetcher.Options(o.threads(), modes[fi], 0);
          Path out = o.workDir().resolve("cairn-restored.img");
          Fetcher.Result f;
          double[] cpu0 = cpuSeconds(grid);
          try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
            f = client.fetch(client.locate("bench", "rank0", 0), fetchOptions, os);
          }
          double[] cpu = minus(cpuSeconds(grid), cpu0);
          check(out);
          sink.accept(new StageResult("e2e-fetch").with("tool", labels[fi])
              .with("bytes", f.size()).with("seconds", round(f.seconds())).with("mbPerSec", round(f.size() / 1e6 / f.seconds()))
              .with("clientCpuSeconds", round(cpu[0])).with("peersCpuSeconds", round(cpu[1])).with("trackerCpuSeconds", round(cpu[2])));
          Files.delete(out);
        }
      }
    }
  }

  /**
   * Stores and fetches a throwaway image under its own app, so that the JVMs of the client, the peers
   * and the tracker have run the store and fetch paths before the series is measured, as those of a
   * grid in use have. Its seed shares no page with the series' images (zero pages aside).
   */
  private void warmUp(LocalGrid grid, Grid client) throws Exception {
    byte[] image = org.cairn.core.image.MemoryImages.image(1_000_003, o.warmUpBytes());
    double[] cpu0 = cpuSeconds(grid);
    StoreOutcome r = client.store(new java.io.ByteArrayInputStream(image), image.length, new StoreOptions("bench-warm-up", "rank0", 0,
        o.redundancy(), o.compressor(), ChunkSize.DEFAULT, o.threads(), "falcon", ImageSource.FILE, "bench-client"));
    java.io.ByteArrayOutputStream back = new java.io.ByteArrayOutputStream(image.length);
    Fetcher.Result f = client.fetch(client.locate("bench-warm-up", "rank0", 0), new Fetcher.Options(o.threads(), ChunkReader.Mode.ALL, 0),
        back);
    if (!java.util.Arrays.equals(back.toByteArray(), image)) {
      throw new IllegalStateException("the warm-up image came back different");
    }
    double[] cpu = minus(cpuSeconds(grid), cpu0);
    sink.accept(new StageResult("e2e-warm-up").with("tool", "cairn").with("bytes", r.size())
        .with("storeSeconds", round(r.seconds())).with("fetchSeconds", round(f.seconds()))
        .with("clientCpuSeconds", round(cpu[0])).with("peersCpuSeconds", round(cpu[1])).with("trackerCpuSeconds", round(cpu[2])));
  }

  /**
   * CPU time used so far (user + system, seconds): {this process (the client), all peers, the tracker}.
   * Where the time goes on a machine whose cores the whole grid shares.
   */
  static double[] cpuSeconds(LocalGrid grid) {
    double client = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime() / 1e9;
    double peers = 0;
    for (LocalGrid.Member p : grid.peers()) {
      peers += cpuOf(p.process());
    }
    return new double[] {client, peers, cpuOf(grid.tracker().process())};
  }

  static double cpuOf(Process p) {
    return p.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
  }

  static double[] minus(double[] a, double[] b) {
    double[] d = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i] - b[i];
    }
    return d;
  }

  private void borg() throws Exception {
    Path repo = o.workDir().resolve("borg-repo");
    Map<String, String> env = Map.of("BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK", "yes", "BORG_RELOCATED_REPO_ACCESS_IS_OK",
        "yes", "BORG_BASE_DIR", o.workDir().resolve("borg-home").toString());
    exec(env, o.workDir(), "borg", "init", "--encryption=none", repo.toString());
    long before = du(repo);
    for (int i = 0; i < o.images().size(); i++) {
      Path image = o.images().get(i);
      double s = exec(env, image.getParent(), "borg", "create", "--compression", "lz4", repo + "::img" + (i + 1),
          image.getFileName().toString());
      long after = du(repo);
      sink.accept(new StageResult("e2e-store").with("tool", "borg").with("image", i + 1).with("bytes", Files.size(image))
          .with("seconds", round(s)).with("mbPerSec", round(Files.size(image) / 1e6 / s)).with("growthBytes", after - before));
      before = after;
    }
    Path target = Files.createDirectories(o.workDir().resolve("borg-restore"));
    Path last = o.images().get(o.images().size() - 1);
    double s = exec(env, target, "borg", "extract", repo + "::img" + o.images().size());
    Path restored = target.resolve(last.getFileName().toString());
    check(restored);
    sink.accept(new StageResult("e2e-fetch").with("tool", "borg").with("bytes", Files.size(restored)).with("seconds", round(s))
        .with("mbPerSec", round(Files.size(restored) / 1e6 / s)));
    Files.delete(restored);
  }

  private void restic() throws Exception {
    Path repo = o.workDir().resolve("restic-repo");
    Map<String, String> env = Map.of("RESTIC_PASSWORD", "cairn-benchmark", "RESTIC_CACHE_DIR",
        o.workDir().resolve("restic-cache").toString());
    exec(env, o.workDir(), "restic", "-r", repo.toString(), "init");
    long before = du(repo);
    for (int i = 0; i < o.images().size(); i++) {
      Path image = o.images().get(i);
      double s = exec(env, image.getParent(), "restic", "-r", repo.toString(), "backup", "--quiet", image.getFileName().toString());
      long after = du(repo);
      sink.accept(new StageResult("e2e-store").with("tool", "restic").with("image", i + 1).with("bytes", Files.size(image))
          .with("seconds", round(s)).with("mbPerSec", round(Files.size(image) / 1e6 / s)).with("growthBytes", after - before));
      before = after;
    }
    Path target = Files.createDirectories(o.workDir().resolve("restic-restore"));
    Path last = o.images().get(o.images().size() - 1);
    double s = exec(env, o.workDir(), "restic", "-r", repo.toString(), "restore", "latest", "--target", target.toString());
    Path restored;
    try (Stream<Path> found = Files.walk(target)) {
      restored = found.filter(p -> p.getFileName().toString().equals(last.getFileName().toString())).findFirst()
          .orElseThrow(() -> new IOException("restic restored no " + last.getFileName()));
    }
    check(restored);
    sink.accept(new StageResult("e2e-fetch").with("tool", "restic").with("bytes", Files.size(restored)).with("seconds", round(s))
        .with("mbPerSec", round(Files.size(restored) / 1e6 / s)));
    Files.delete(restored);
  }

  /** The restored file must equal the last image. */
  private void check(Path restored) throws IOException {
    Path last = o.images().get(o.images().size() - 1);
    if (Files.mismatch(restored, last) != -1) {
      throw new IOException(restored + " differs from " + last);
    }
  }

  /** Runs a command to completion; returns its wall time in seconds, or throws with its output. */
  private double exec(Map<String, String> env, Path cwd, String... cmd) throws IOException, InterruptedException {
    Path log = o.workDir().resolve("tool.log");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(env);
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(1, TimeUnit.HOURS)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", cmd) + " did not finish within an hour");
    }
    double s = (System.nanoTime() - start) / 1e9;
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): " + Files.readString(log));
    }
    return s;
  }

  private static long du(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /**
   * Writes {@code images} synthetic memory images of {@code bytes} into {@code dir} (made if missing): the first
   * seeded, each next with {@code change} of its pages changed (seeded too, so runs compare).
   */
  public static List<Path> syntheticSeries(Path dir, int bytes, int images, double change) throws IOException {
    Files.createDirectories(dir);
    List<Path> series = new ArrayList<>();
    byte[] image = org.cairn.core.image.MemoryImages.image(42, bytes);
    for (int i = 1; i <= images; i++) {
      if (i > 1) {
        image = org.cairn.core.image.MemoryImages.successor(image, change, 42 + i);
      }
      series.add(Files.write(dir.resolve("image-" + i + ".img"), image));
    }
    return series;
  }
}
