package org.cairn.cli.criu;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.commons.io.file.PathUtils;
import org.cairn.client.Grid;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.manifest.Manifest;

/**
 * One dump of a process tree into the grid: CRIU writes the images into a private directory under the work
 * directory, and only when it reports success is that directory stored as the next version (a directory version);
 * the local images are removed either way. A failed dump stores nothing and keeps CRIU's log as
 * {@code last-failed-dump.log} in the work directory.
 */
final class CriuDumper {
  /** Stores a dump's image directory as a version, or as part {@code set} of a checkpoint set (null: a version of its own). */
  interface Storer {
    StoreOutcome store(Path images, Manifest.SetPart set) throws IOException;
  }

  /** A dump CRIU did not report as done: nothing was stored. */
  static final class DumpFailed extends IOException {
    DumpFailed(String message) {
      super(message);
    }
  }

  private final Criu criu;
  private final Path workDir;
  private final Storer storer;

  CriuDumper(Criu criu, Path workDir, Storer storer) {
    this.criu = criu;
    this.workDir = workDir;
    this.storer = storer;
  }

  /** The storer that stores through {@code grid} with {@code options} (kind: a directory). */
  static Storer into(Grid grid, StoreOptions options) {
    return (images, set) -> {
      try (InputStream in = ImageSource.open(images)) {
        return grid.store(in, 0, set == null ? options : options.withSet(set));
      }
    };
  }

  /** Dumps the tree rooted at {@code pid} and stores it; {@code leaveRunning}: the tree goes on (else CRIU ends it). */
  StoreOutcome dumpAndStore(long pid, boolean leaveRunning) throws IOException, InterruptedException {
    return dumpAndStore(pid, leaveRunning, null);
  }

  /**
   * As {@link #dumpAndStore(long, boolean)}, stored as part {@code set} of a checkpoint set (null: a version of its own); a
   * failed dump stores nothing, so the set lacks this part and never becomes a version.
   */
  StoreOutcome dumpAndStore(long pid, boolean leaveRunning, Manifest.SetPart set) throws IOException, InterruptedException {
    Files.createDirectories(workDir);
    Path tmp = Files.createTempDirectory(workDir, "dump-"); // 0700: the images hold the process's memory
    try {
      Path images = Files.createDirectory(tmp.resolve("images"));
      Path log = tmp.resolve("criu.log");
      CriuVerdict v = criu.dump(pid, images, log, leaveRunning);
      if (!v.ok()) {
        Path kept = workDir.resolve("last-failed-dump.log");
        if (Files.exists(log)) {
          Files.move(log, kept, StandardCopyOption.REPLACE_EXISTING);
        }
        throw new DumpFailed("CRIU's dump of " + pid + " failed, nothing stored: " + v.reason()
            + (Files.exists(kept) ? " (log: " + kept + ")" : ""));
      }
      return storer.store(images, set);
    } finally {
      PathUtils.deleteDirectory(tmp);
    }
  }
}
