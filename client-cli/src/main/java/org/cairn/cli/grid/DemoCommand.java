package org.cairn.cli.grid;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.client.Grid;
import org.cairn.client.fetch.Fetcher;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.compress.Compressor;
import org.cairn.core.config.ByteSize;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.image.MemoryImages;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code cairn demo}: Cairn's main job on this machine. Starts a local grid, stores a series of
 * checkpoints of a (synthetic) running process, kills a peer without warning, fetches the latest
 * checkpoint back from the survivors, verifies it byte for byte, reports what happened, and stops
 * the grid. Exit 0 only if the fetched checkpoint is identical.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run Cairn end to end on a local grid: store a checkpoint series, kill a peer, fetch and verify.")
public final class DemoCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--peers", defaultValue = "6", description = "Peers in the local grid (default: ${DEFAULT-VALUE}).")
  int peers;

  @Option(names = "--size", defaultValue = "64MiB", description = "Size of each checkpoint (default: ${DEFAULT-VALUE}).")
  String size;

  @Option(names = "--steps", defaultValue = "3", description = "Checkpoints in the series (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(names = "--redundancy", defaultValue = "code:4+2", description = "Redundancy (default: ${DEFAULT-VALUE}).")
  String redundancy;

  @Option(names = "--dir", description = "Keep the grid's data and logs here (default: a temporary directory, removed).")
  Path dir;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Redundancy r;
    long bytes;
    try {
      r = Redundancy.parse(redundancy);
      bytes = ByteSize.parse(size);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (r.parityFragments() < 1 || r.totalFragments() > peers) {
      throw new CommandLine.ParameterException(spec.commandLine(), "the demo kills one peer: it needs k >= 1 and n <= --peers ("
          + peers + "), got " + r.spec());
    }
    if (bytes < 1 << 20 || bytes > 1L << 30 || steps < 1 || steps > 20) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--size must be 1MiB..1GiB and --steps 1..20");
    }
    Path workDir = dir != null ? dir.toAbsolutePath() : Files.createTempDirectory("cairn-demo");
    out.printf("Starting a local grid: a tracker and %d peers in %s%n", peers, workDir);
    out.flush();
    try (LocalGrid grid = LocalGrid.start(workDir, peers, 2L << 30, Duration.ofSeconds(1));
        Grid client = grid.openClient()) {
      out.printf("  tracker at %s%n", grid.trackerUrl());
      byte[] image = MemoryImages.image(2026, (int) bytes);
      // encrypted as `cairn store` does by default; the demo's key lives and dies with its grid
      org.cairn.core.crypto.ChunkCrypto sealing = new org.cairn.client.keys.AppKeys(workDir.resolve("keys"))
          .findOrCreate("demo", java.time.Instant.now()).key().crypto(org.cairn.core.crypto.Encryption.DEFAULT);
      for (int step = 1; step <= steps; step++) {
        if (step > 1) {
          image = MemoryImages.successor(image, 0.10, 2026 + step);
        }
        StoreOutcome res = client.store(new ByteArrayInputStream(image), image.length, new StoreOptions("demo", "rank0", 0, r,
            Compressor.parse(Compressor.DEFAULT_SPEC), ChunkSize.DEFAULT, Runtime.getRuntime().availableProcessors(), "falcon",
            ImageSource.FILE, "demo-client", false, StoreOptions.DEFAULT_PROBE_AFTER, StoreOptions.DEFAULT_COMMIT_TIMEOUT, sealing));
        out.printf(Locale.ROOT, "Stored checkpoint %d: %s, %d of %d chunks new, sent %s (%s) in %.2f s = %.0f MB/s of checkpoint%n",
            res.step(), ByteSize.format(res.size()), res.newChunks(), res.chunks(), ByteSize.format(res.sentBytes()), r.spec(),
            res.seconds(), res.size() / 1e6 / res.seconds());
        out.flush();
      }
      LocalGrid.Member victim = grid.peers().get(0);
      grid.kill(victim);
      out.printf("Killed peer %s (%s) without warning%n", victim.id(), victim.address());
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      Fetcher.Result res;
      try (OutputStream sink = new java.security.DigestOutputStream(OutputStream.nullOutputStream(), digest)) {
        res = client.fetch(client.locate("demo", "rank0", 0), Fetcher.Options.defaults(), sink, sealing);
      }
      boolean same = MessageDigest.isEqual(digest.digest(), MessageDigest.getInstance("SHA-256").digest(image));
      out.printf(Locale.ROOT, "Fetched checkpoint %d from the surviving peers: %s in %.2f s = %.0f MB/s%n", res.step(),
          ByteSize.format(res.size()), res.seconds(), res.size() / 1e6 / res.seconds());
      out.println(same ? "Verified: the fetched checkpoint is byte-identical to the one stored."
          : "FAILED: the fetched checkpoint differs from the one stored.");
      out.flush();
      return same ? 0 : 1;
    } finally {
      out.println("Stopped the grid" + (dir != null ? "; data and logs kept in " + workDir : "") + ".");
      out.flush();
      if (dir == null) {
        deleteTree(workDir);
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var s = Files.walk(root)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
