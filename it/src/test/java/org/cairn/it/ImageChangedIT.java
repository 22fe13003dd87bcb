package org.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint file still being written while it is stored makes no version; the same file, once complete, does. */
class ImageChangedIT {
  @TempDir
  Path root;

  private MiniGrid grid;

  @AfterEach
  void stopGrid() {
    if (grid != null) {
      grid.close();
    }
  }

  @Test
  void aFileThatGrowsWhileStored_isNotStored_andIsOnceComplete() throws Exception {
    grid = new MiniGrid(root, Duration.ofSeconds(1));
    grid.startTracker();
    for (int i = 0; i < 5; i++) {
      grid.startPeer("p" + i, "--id", "p" + i);
    }
    MiniGrid.await("5 peers", Duration.ofSeconds(30), () -> grid.peers().size() == 5);
    Path file = Files.write(root.resolve("ckpt.img"), MemoryImages.image(3, 48 * 1024 * 1024));
    AtomicBoolean writing = new AtomicBoolean(true);
    Thread job = new Thread(() -> { // the job, still appending to its checkpoint
      try {
        while (writing.get()) {
          Files.write(file, new byte[4096], StandardOpenOption.APPEND);
          Thread.sleep(5);
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    job.start();
    MiniGrid.Cli s;
    try {
      s = grid.cli("store", file.toString(), "--app", "c", "--node", "n");
    } finally {
      writing.set(false);
      job.join();
    }
    assertThat(s.exit()).as(s.stdout() + s.stderr()).isEqualTo(1);
    assertThat(s.stderr()).contains(file + " changed while it was read").contains("nothing was stored");
    MiniGrid.Cli none = grid.cli("versions", "--app", "c", "--node", "n", "--json");
    assertThat(none.stdout().strip()).as(none.stderr()).isIn("[]", "");

    MiniGrid.Cli whole = grid.cli("store", file.toString(), "--app", "c", "--node", "n");
    assertThat(whole.exit()).as(whole.stderr()).isZero();
    assertThat(grid.cli("versions", "--app", "c", "--node", "n", "--json").json()).hasSize(1);
  }
}
