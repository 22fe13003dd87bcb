package org.cairn.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.cairn.cli.context.Root;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.compress.Compressor;
import org.cairn.core.config.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code cairn benchmark STAGE}: measures a stage of the data path on this machine, like {@code kopia benchmark}. It lives in
 * cairn-bench.jar beside cairn.jar, not in the product jar; the command line finds it there by name (client-cli's
 * {@code org.cairn.cli.BenchmarkCommand} holds its place among the commands).
 */
@Command(
    name = "benchmark",
    mixinStandardHelpOptions = true,
    description = {
        "Measure the data path on this machine to choose chunk size, compression and redundancy.",
        "Rates are MB/s of input (1 MB = 10^6 bytes). Without --data-file, a seeded synthetic memory image is used.",
        "",
        "Stages:",
        "  hashing      SHA-256 of chunks (the content ids)",
        "  compression  each compressor: rate, ratio and decompression rate",
        "  erasure      Reed-Solomon (code) and Cauchy XOR (cauchy) encode and decode, vs SHA-256 in the same run",
        "  chunking     cut + hash + dedup for chunk sizes 64KiB..16MiB over an image series (dedup ratio)",
        "  pipeline     the whole store and fetch pipelines with --threads workers",
        "  heartbeats   open-loop heartbeat load on a running tracker (--tracker, --token-file, --peers, --rate)",
        "  commits      version commits of --chunks new chunks each, one after another, on a running tracker or",
        "               tracker group (--tracker URL1,URL2,URL3, --token-file, --versions, --chunks, --warmup)",
        "  catalog      the catalog at scale on a running tracker started with --repair-grace 0s: --holders donors,",
        "               commits up to --fill chunks (commit p50/p99, the tracker's memory at --milestones), then",
        "               --fail-fraction of the holders fail at once: time to DOWN and to every chunk at risk queued",
        "  e2e          store a checkpoint series and fetch the last on a local grid (--grid-peers, code:M+K), each a new",
        "               cairn process (through the launcher beside the jar when there is one) with and without a",
        "               running agent (--in-process: in this JVM), against",
        "               borg create --compression lz4 / borg extract and restic backup / restore on the same files",
        "  all          every stage above"
    })
public final class BenchmarkCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "STAGE", description = "hashing|compression|erasure|chunking|pipeline|heartbeats|commits|catalog|e2e|all")
  String stage;

  @Option(names = "--data-file", paramLabel = "FILE",
      description = "Image to measure on (repeat for a series of successive images; chunking measures dedup across them).")
  List<Path> dataFiles = new ArrayList<>();

  @Option(names = "--size", paramLabel = "SIZE", defaultValue = "256MiB",
      description = "Size of the synthetic image when no --data-file is given (default: ${DEFAULT-VALUE}).")
  String size;

  @Option(names = "--chunk-size", paramLabel = "SIZE",
      description = "Chunk size, a power of two from 64KiB to 16MiB (default: 1MiB; chunking: all sizes).")
  String chunkSize;

  @Option(names = "--chunking", split = ",", paramLabel = "MODE",
      description = "chunking stage: fixed, aligned and/or cdc (default: all three).")
  List<String> chunkings;

  @Option(names = "--data-shards", paramLabel = "M", defaultValue = "4", description = "m, data fragments (default: ${DEFAULT-VALUE}).")
  int dataShards;

  @Option(names = "--parity-shards", paramLabel = "K", defaultValue = "2", description = "k, parity fragments (default: ${DEFAULT-VALUE}).")
  int parityShards;

  @Option(names = "--shard-size", paramLabel = "SIZE", defaultValue = "1MiB",
      description = "Shard size for the erasure stage (default: ${DEFAULT-VALUE}).")
  String shardSize;

  @Option(names = "--codec", paramLabel = "CODEC", split = ",",
      description = "Erasure codecs to measure: code (Reed-Solomon), cauchy (default: both).")
  List<String> codecs = new ArrayList<>(List.of("code", "cauchy"));

  @Option(names = "--compression", paramLabel = "SPEC", split = ",",
      description = "Compressors to measure (compression stage; default: zstd:1,zstd:3,zstd:9,gzip:1,gzip:6,auto,none) "
          + "or the one the pipeline uses (default: auto).")
  List<String> compression;

  @Option(names = "--redundancy", paramLabel = "SPEC",
      description = "Redundancy of the pipeline stage (default: code:M+K from --data-shards/--parity-shards).")
  String redundancy;

  @Option(names = "--threads", paramLabel = "N",
      description = "Worker threads for the pipeline stage (default: cores = ${sys:cairn.cores}).")
  Integer threads;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "2",
      description = "Minimum measuring time per figure (default: ${DEFAULT-VALUE}).")
  double seconds;

  @Option(names = "--json", description = "One JSON object per line instead of a table.")
  boolean json;

  @Option(names = "--images", paramLabel = "N", defaultValue = "4",
      description = "e2e: synthetic images in the series when no --data-file is given (default: ${DEFAULT-VALUE}).")
  int images;

  @Option(names = "--in-process", description = {"e2e: store and fetch in this JVM (warm after the first image) instead of the "
      + "job's path: a new cairn process per command, with a running agent and without one (the default)."})
  boolean inProcess;

  @Option(names = "--warm-up", paramLabel = "SIZE", defaultValue = "0",
      description = "e2e: before the series, store and fetch a throwaway synthetic image of SIZE (a different seed, so "
          + "nothing dedups against it), as a grid that has been running would have: the series then measures warm "
          + "JVMs (default: ${DEFAULT-VALUE}, none: the first image meets cold ones).")
  String warmUp;

  @Option(names = "--change", paramLabel = "FRACTION", defaultValue = "0.1",
      description = "e2e: fraction of pages each synthetic successor changes (default: ${DEFAULT-VALUE}).")
  double change;

  @Option(names = "--grid-peers", paramLabel = "N", defaultValue = "6",
      description = "e2e: peers of the local grid (default: ${DEFAULT-VALUE}).")
  int gridPeers;

  @Option(names = "--compare", paramLabel = "TOOL", split = ",", defaultValue = "borg,restic",
      description = "e2e: tools to compare with, when installed (default: ${DEFAULT-VALUE}).")
  List<String> compare;

  @Option(names = "--dir", paramLabel = "DIR", description = "e2e: working directory (default: a temporary one, deleted after).")
  Path dir;

  @CommandLine.Mixin
  TrackerLoad trackerLoad;

  @CommandLine.ParentCommand
  Root parent;

  static {
    System.setProperty("cairn.cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
  }

  @Override
  public Integer call() throws Exception {
    String which = stage.toLowerCase(Locale.ROOT);
    if (which.equals("heartbeats")) {
      return trackerLoad.heartbeats(spec.commandLine(), parent, seconds, json);
    }
    if (which.equals("e2e")) {
      return e2e();
    }
    if (which.equals("commits")) {
      return trackerLoad.commits(spec.commandLine(), parent, json);
    }
    if (which.equals("catalog")) {
      return trackerLoad.catalog(spec.commandLine(), parent, json);
    }
    List<String> stages = which.equals("all")
        ? List.of("hashing", "compression", "erasure", "chunking", "pipeline")
        : List.of(which);
    for (String s : stages) {
      if (!List.of("hashing", "compression", "erasure", "chunking", "pipeline").contains(s)) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "unknown stage '" + stage + "': use hashing, compression, erasure, chunking, pipeline or all");
      }
    }
    validate();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean series = stages.contains("chunking");
    BenchData data = BenchData.load(dataFiles, ByteSize.parse(size), series && dataFiles.isEmpty() ? 4 : 1);
    if (!json) {
      out.printf("Data: %s%n", data.description());
      out.flush();
    } else {
      err.printf("cairn benchmark: data: %s%n", data.description());
      err.flush();
    }
    Consumer<StageResult> sink = StageOutput.to(out, json);
    Stages bench = new Stages(data, seconds, sink);
    int chunk = chunkSize == null ? ChunkSize.DEFAULT : ChunkSize.parse(chunkSize);
    for (String s : stages) {
      switch (s) {
        case "hashing":
          bench.hashing(chunk);
          break;
        case "compression":
          bench.compression(compression == null
              ? List.of("zstd:1", "zstd:3", "zstd:9", "gzip:1", "gzip:6", "auto", "none") : compression, chunk);
          break;
        case "erasure":
          bench.erasure(dataShards, parityShards, (int) ByteSize.parse(shardSize), codecs);
          break;
        case "chunking":
          bench.chunking(chunkSize == null
              ? List.of(64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20) : List.of(chunk),
              chunkings == null ? List.of(org.cairn.core.chunk.Chunking.values())
                  : chunkings.stream().map(org.cairn.core.chunk.Chunking::parse).toList());
          break;
        case "pipeline":
          bench.pipeline(chunk, compression == null ? Compressor.DEFAULT_SPEC : compression.get(0),
              redundancy == null ? "code:" + dataShards + "+" + parityShards : redundancy,
              threads == null ? Runtime.getRuntime().availableProcessors() : threads);
          break;
        default:
          throw new AssertionError(s);
      }
    }
    return 0;
  }

  private Integer e2e() throws Exception {
    CommandLine cl = spec.commandLine();
    org.cairn.core.erasure.Redundancy r;
    Compressor c;
    try {
      r = org.cairn.core.erasure.Redundancy.parse(redundancy != null ? redundancy : "code:" + dataShards + "+" + parityShards);
      c = Compressor.parse(compression == null ? Compressor.DEFAULT_SPEC : compression.get(0));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    if (r.totalFragments() > gridPeers || gridPeers > 32 || images < 1 || images > 50 || !(change >= 0 && change <= 1)) {
      throw new CommandLine.ParameterException(cl, "e2e needs m+k <= --grid-peers <= 32, 1 <= --images <= 50, 0 <= --change <= 1");
    }
    List<String> tools = EndToEnd.available(compare);
    PrintWriter err = cl.getErr();
    for (String t : compare) {
      if (!tools.contains(t)) {
        err.println("cairn benchmark e2e: " + t + " is not installed; skipping it (Debian: apt-get install -y borgbackup restic)");
      }
    }
    Path work = dir != null ? java.nio.file.Files.createDirectories(dir.toAbsolutePath())
        : java.nio.file.Files.createTempDirectory("cairn-e2e");
    try {
      List<Path> series = new ArrayList<>(dataFiles);
      if (series.isEmpty()) {
        long bytes = ByteSize.parse(size);
        if (bytes > BenchData.MAX_IMAGE) {
          throw new CommandLine.ParameterException(cl, "synthetic images are at most 1GiB; give --data-file for larger ones");
        }
        series.addAll(EndToEnd.syntheticSeries(work.resolve("images"), (int) bytes, images, change));
      }
      err.printf("cairn benchmark e2e: %d images (%s), %d peers, %s, compared with %s; working in %s%n", series.size(),
          dataFiles.isEmpty() ? "synthetic, " + size + ", " + Math.round(change * 100) + " % of pages changed per step" : "given files",
          gridPeers, r.spec(), tools.isEmpty() ? "nothing" : String.join(" and ", tools), work);
      err.flush();
      PrintWriter out = cl.getOut();
      Consumer<StageResult> sink = StageOutput.to(out, json);
      long warmUpBytes = ByteSize.parse(warmUp);
      if (warmUpBytes > BenchData.MAX_IMAGE) {
        throw new CommandLine.ParameterException(cl, "--warm-up is at most 1GiB");
      }
      new EndToEnd(new EndToEnd.Options(series, gridPeers, r, c,
          threads == null ? Runtime.getRuntime().availableProcessors() : threads, work, tools, (int) warmUpBytes, inProcess), sink).run();
    } finally {
      if (dir == null) {
        try (var walk = java.nio.file.Files.walk(work)) {
          walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
    return 0;
  }

  private void validate() {
    CommandLine cl = spec.commandLine();
    try {
      if (chunkSize != null) {
        ChunkSize.parse(chunkSize);
      }
      ByteSize.parse(size);
      long shard = ByteSize.parse(shardSize);
      if (shard < 64 || shard > (64L << 20)) {
        throw new IllegalArgumentException("--shard-size must be between 64 bytes and 64MiB, was " + shardSize);
      }
      for (String c : codecs) {
        if (!c.equals("code") && !c.equals("cauchy")) {
          throw new IllegalArgumentException("--codec must be code or cauchy, was '" + c + "'");
        }
      }
      org.cairn.core.erasure.Redundancy.parse(redundancy != null ? redundancy : "code:" + dataShards + "+" + parityShards);
      if (compression != null) {
        compression.forEach(Compressor::parse);
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    if (threads != null && (threads < 1 || threads > 256)) {
      throw new CommandLine.ParameterException(cl, "--threads must be between 1 and 256, was " + threads);
    }
    if (!(seconds > 0 && seconds <= 600)) {
      throw new CommandLine.ParameterException(cl, "--seconds must be in (0, 600], was " + seconds);
    }
  }
}
