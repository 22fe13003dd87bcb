package org.cairn.cli.podman;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cairn.client.Grid;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.chunk.ImageSource;

/**
 * One checkpoint of a container into the grid: Podman exports it (uncompressed, so the store can cut its CRIU pages
 * along their pagemaps) to a 0600 tar in a private directory under the work directory, and only when Podman exits 0 with
 * a tar written is that tar stored as the next version (a file version, as {@code cairn store F.tar} would store it);
 * the tar is removed either way.
 */
final class PodmanCheckpointer {
  /** Stores an export tar as a version. */
  interface Storer {
    StoreOutcome store(Path tar) throws IOException;
  }

  /** A checkpoint Podman did not make: nothing was stored. */
  static final class CheckpointFailed extends IOException {
    CheckpointFailed(String message) {
      super(message);
    }
  }

  private final Podman podman;
  private final Path workDir;
  private final Storer storer;

  PodmanCheckpointer(Podman podman, Path workDir, Storer storer) {
    this.podman = podman;
    this.workDir = workDir;
    this.storer = storer;
  }

  /** The storer that stores through {@code grid} with {@code options} (kind: a file). */
  static Storer into(Grid grid, StoreOptions options) {
    return tar -> {
      try (InputStream in = ImageSource.open(tar)) {
        return grid.store(in, Files.size(tar), options);
      }
    };
  }

  /** Checkpoints {@code container} and stores its export; {@code leaveRunning}: it goes on (else Podman stops it). */
  StoreOutcome checkpointAndStore(String container, boolean leaveRunning) throws IOException, InterruptedException {
    try (Scratch scratch = Scratch.under(workDir, "checkpoint-")) {
      Path tar = scratch.tar("export.tar");
      Podman.Outcome o = podman.checkpoint(container, tar, leaveRunning, scratch.dir());
      if (!o.ok()) {
        throw new CheckpointFailed("podman's checkpoint of " + container + " failed, nothing stored: " + o.reason(podman.timeout()));
      }
      if (Files.size(tar) == 0) {
        throw new CheckpointFailed("podman exited 0 but exported nothing for " + container + ", nothing stored");
      }
      return storer.store(tar);
    }
  }
}
