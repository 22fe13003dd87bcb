package org.cairn.cli.command;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.cli.output.Progress;
import org.cairn.cli.output.SyncedFileOutput;
import org.cairn.client.Grid;
import org.cairn.client.fetch.Fetcher;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.chunk.TarImages;
import org.cairn.core.config.ByteSize;
import org.cairn.core.read.ChunkReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn fetch}: restores a version to a file (atomically), standard output, or a directory. */
@Command(name = "fetch", mixinStandardHelpOptions = true,
    description = {"Fetch a version (the latest committed one unless --step) to -o FILE, standard output, or --dir DIR.",
        "Each chunk is read from the first m of its holders to answer; up to k may be down or slow."})
public final class FetchCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @CommandLine.Mixin
  Target.Step stepOption;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write here (via a temporary name, fsync, rename); '-' is standard output, as without -o.")
  Path output;

  @Option(names = "--dir", paramLabel = "DIR", description = "Restore a directory checkpoint into DIR.")
  Path dir;

  @Option(names = "--threads", description = "Worker threads (default: cores).")
  Integer threads;

  @Option(names = "--part", paramLabel = "R",
      description = "Of a checkpoint set's version (stored with --set), restore part R (0..P-1).")
  Integer part;

  @Option(names = "--read", defaultValue = "hedged", paramLabel = "MODE",
      description = {"hedged (default): ask m holders, fastest first, and one more whenever one fails or no piece arrives "
          + "for twice the chunk's time so far (moves m/n of the bytes of 'all' when nothing is slow);",
          "all: ask every holder of a chunk at once and decode from the first m pieces;",
          "first-m: ask only m holders, one more per failure (slow when a holder is slow; for comparisons)."})
  String read;

  @Option(names = "--in-flight", defaultValue = "0", paramLabel = "CHUNKS",
      description = "Chunks fetched ahead of the writer; 0 (default): as many as fit in 64 MiB (at least 2 per thread).")
  int inFlight;

  @Option(names = "--json", description = "Print the result as JSON (on stderr when the data goes to stdout).")
  boolean json;

  private long progressTotal;
  private org.cairn.core.crypto.ChunkCrypto crypto;

  /** Counts what is written and shows progress on a terminal. */
  private OutputStream counted(OutputStream out, java.util.concurrent.atomic.AtomicReference<AutoCloseable> progress) {
    org.apache.commons.io.output.CountingOutputStream c = new org.apache.commons.io.output.CountingOutputStream(out);
    progress.set(Progress.start(root.session().stderr(), root.session().terminal(), root.quiet() || json || (output == null && dir == null), "fetching", c::getByteCount, progressTotal));
    return c;
  }

  @Override
  public Integer call() throws Exception {
    ChunkReader.Mode readMode;
    try {
      readMode = ChunkReader.Mode.parse(read);
      if (readMode == ChunkReader.Mode.EVERY) {
        throw new IllegalArgumentException("read mode must be all, first-m or hedged, was '" + read + "'");
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--read: " + e.getMessage());
    }
    String app = target.app;
    String node = nodeOption.node;
    long step = stepOption.step;
    CommandLine cl = spec.commandLine();
    if (output != null && output.toString().equals("-")) {
      output = null; // like curl and tar: '-' is standard output
    }
    output = root.session().path(output);
    dir = root.session().path(dir);
    if (output != null && dir != null) {
      throw new CommandLine.ParameterException(cl, "give -o FILE or --dir DIR, not both");
    }
    int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    Fetcher.Options options;
    try {
      options = new Fetcher.Options(t, readMode, inFlight);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    try (Grid grid = GridAccess.open(root, cl)) {
      if (part != null && part < 0) {
        throw new CommandLine.ParameterException(cl, "--part must be >= 0, was " + part);
      }
      LocatedVersion located = grid.locate(app, node, step, part == null ? -1 : part);
      // the key is checked before anything is written, so a wrong or missing key leaves no file behind
      crypto = root.keys().forVersion(located.manifest());
      String kind = located.manifest().kind() == null ? ImageSource.FILE : located.manifest().kind();
      progressTotal = located.manifest().size();
      Fetcher.Result res;
      if (dir != null) {
        if (!kind.equals(ImageSource.DIRECTORY)) {
          throw new CommandLine.ParameterException(cl, "version " + app + "." + node + " is a file checkpoint; use -o FILE");
        }
        res = fetchIntoDirectory(grid, located, options);
      } else if (output != null) {
        res = fetchIntoFile(grid, located, options);
      } else {
        OutputStream stdout = new java.io.BufferedOutputStream(root.session().stdout(), 1 << 20);
        res = grid.fetch(located, options, stdout, crypto);
        stdout.flush();
      }
      print(res, output == null && dir == null);
    }
    return 0;
  }

  /** Writes to a temporary file next to the target, syncs it, and renames it into place; removes it on failure. */
  private Fetcher.Result fetchIntoFile(Grid grid, LocatedVersion located, Fetcher.Options options) throws IOException {
    Path target = output.toAbsolutePath();
    Path parent = target.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new IOException("cannot write " + target + ": no such directory " + parent);
    }
    if (!Files.isWritable(parent)) {
      throw new IOException("cannot write " + target + ": permission denied in " + parent);
    }
    Path tmp = Files.createTempFile(parent, "." + target.getFileName() + ".", ".cairn-partial");
    boolean done = false;
    try {
      Fetcher.Result res;
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE);
          SyncedFileOutput out = new SyncedFileOutput(ch, org.cairn.cli.context.Tunables.system().writebackBytes())) {
        java.util.concurrent.atomic.AtomicReference<AutoCloseable> progress = new java.util.concurrent.atomic.AtomicReference<>();
        // a failed write (a full disk) names the file, as a failed read names the chunk
        OutputStream named = new org.apache.commons.io.output.ProxyOutputStream(out) {
          @Override
          protected void handleIOException(IOException e) throws IOException {
            throw new IOException("writing " + target + ": " + e.getMessage(), e);
          }
        };
        try {
          res = grid.fetch(located, options, counted(named, progress), crypto);
        } finally {
          closeQuietly(progress.get());
        }
        try {
          out.sync();
        } catch (IOException e) {
          throw new IOException("writing " + target + ": " + e.getMessage(), e);
        }
      }
      // the temporary file was made 0600; the restored one gets what a new file gets here (0644 under umask 022)
      Files.setPosixFilePermissions(tmp, newFileMode());
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      done = true;
      return res;
    } finally {
      if (!done) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  /** rw-rw-rw- less this process's umask (from /proc/self/status; 022 where it cannot be read). */
  public static java.util.Set<java.nio.file.attribute.PosixFilePermission> newFileMode() {
    int umask = 022;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Umask:")) {
          umask = Integer.parseInt(line.substring(6).strip(), 8);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux: the usual umask
    }
    int mode = 0666 & ~umask;
    java.util.Set<java.nio.file.attribute.PosixFilePermission> out = java.util.EnumSet.noneOf(java.nio.file.attribute.PosixFilePermission.class);
    java.nio.file.attribute.PosixFilePermission[] bits = java.nio.file.attribute.PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE
    for (int i = 0; i < 9; i++) {
      if ((mode & (0400 >> i)) != 0) {
        out.add(bits[i]);
      }
    }
    return out;
  }

  /**
   * Streams the version's tar image into the extractor (bounded pipe, no temporary copy of the image). A new directory is
   * restored beside its name and renamed into place once complete, so a failed restore leaves nothing under the name; an
   * existing one is restored into in place.
   */
  private Fetcher.Result fetchIntoDirectory(Grid grid, LocatedVersion located, Fetcher.Options options) throws Exception {
    java.util.concurrent.atomic.AtomicReference<AutoCloseable> progress = new java.util.concurrent.atomic.AtomicReference<>();
    try {
      return Files.exists(dir) ? extract(grid, located, options, crypto, dir, out -> counted(out, progress))
          : restoreBeside(grid, located, options, crypto, dir, out -> counted(out, progress));
    } finally {
      closeQuietly(progress.get());
    }
  }

  /** Fetches a directory version's tar image through {@code wrap} into the extractor writing {@code into}. */
  private static Fetcher.Result extract(Grid grid, LocatedVersion located, Fetcher.Options options,
      org.cairn.core.crypto.ChunkCrypto crypto, Path into, java.util.function.UnaryOperator<java.io.OutputStream> wrap)
      throws IOException {
    PipedInputStream in = new PipedInputStream(1 << 20);
    PipedOutputStream out = new PipedOutputStream(in);
    CompletableFuture<Void> extracted = CompletableFuture.runAsync(() -> {
      try (in) {
        TarImages.extract(in, into);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    Fetcher.Result res;
    try (out) {
      res = grid.fetch(located, options, wrap.apply(out), crypto);
    } catch (IOException e) {
      extracted.cancel(true);
      throw e;
    }
    try {
      extracted.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw new IOException("restoring into " + into + " failed: " + e.getCause().getMessage(), e.getCause());
    }
    return res;
  }

  /**
   * Restores a directory version into {@code target}, which must not exist: extracted under a
   * temporary name beside it and renamed into place once complete.
   */
  public static Fetcher.Result intoDirectory(Grid grid, LocatedVersion located, org.cairn.core.crypto.ChunkCrypto crypto, Path target)
      throws IOException {
    if (Files.exists(target)) {
      throw new IOException(target + " exists; remove it or restore elsewhere");
    }
    return restoreBeside(grid, located, Fetcher.Options.defaults(), crypto, target, out -> out);
  }

  /** Restores into a private temporary directory beside {@code target}, renamed to it once the restore is complete. */
  private static Fetcher.Result restoreBeside(Grid grid, LocatedVersion located, Fetcher.Options options,
      org.cairn.core.crypto.ChunkCrypto crypto, Path target, java.util.function.UnaryOperator<java.io.OutputStream> wrap)
      throws IOException {
    Path tmp = target.resolveSibling("." + target.getFileName() + ".restoring");
    Path parent = target.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent); // as a file fetch does: the target's directory is made if missing
    }
    if (Files.isSymbolicLink(tmp)) {
      Files.delete(tmp); // never restore through a link someone left in our place
    } else if (Files.exists(tmp)) {
      org.apache.commons.io.file.PathUtils.deleteDirectory(tmp);
    }
    Files.createDirectory(tmp, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
    boolean done = false;
    try {
      Fetcher.Result res = extract(grid, located, options, crypto, tmp, wrap);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      done = true;
      return res;
    } finally {
      if (!done && Files.exists(tmp)) {
        org.apache.commons.io.file.PathUtils.deleteDirectory(tmp);
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception ignored) {
        // a progress display that fails to clear its line is not worth failing a fetch for
      }
    }
  }

  /** What {@code fetch --json} prints (on standard error when the data goes to standard output). */
  record Fetched(String app, String node, long step, long size, String kind, double seconds, double mbPerSec, int chunksFromThisHost) {}

  private void print(Fetcher.Result res, boolean dataOnStdout) throws IOException {
    PrintWriter out = dataOnStdout ? spec.commandLine().getErr() : spec.commandLine().getOut();
    double mbps = res.size() / 1e6 / Math.max(res.seconds(), 1e-9);
    if (json) {
      out.println(Json.MAPPER.writeValueAsString(new Fetched(res.app(), res.node(), res.step(), res.size(), res.kind(),
          Math.round(res.seconds() * 1000) / 1000.0, Math.round(mbps * 10) / 10.0, res.chunksFromThisHost())));
    } else if (!dataOnStdout) {
      out.printf(Locale.ROOT, "fetched %s.%s.%d: %s in %.1f s (%s/s) to %s%n", res.app(), res.node(), res.step(),
          ByteSize.format(res.size()), res.seconds(), ByteSize.format((long) (mbps * 1e6)), dir != null ? dir : output);
    }
    out.flush();
  }
}
