package org.cairn.peer.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cairn.peer.store.index.FragmentIndex;

/**
 * Whether the store's disk has room for writes. A write that fails for lack of space (a segment
 * append cut back, or RocksDB in read-only mode after a failed index write) is noted here; from then
 * on the peer refuses new pieces (reads go on) until {@link #checkWritable}, on the peer's heartbeat
 * tick, finds a 1 MiB probe file fits and a small synced index write works, reopening the index if
 * RocksDB still holds the error.
 */
final class SpaceGuard {
  private static final int PROBE_BYTES = 1 << 20;

  private final Path dir;
  private final FragmentIndex index;
  /** Why writes fail for lack of space (null while they do not). */
  private volatile String outOfSpace;

  SpaceGuard(Path dir, FragmentIndex index) {
    this.dir = dir;
    this.index = index;
  }

  /** Why writes fail for lack of disk space, or null if they do not. */
  String reason() {
    return outOfSpace;
  }

  /** Notes a failed write: one for lack of space (the index's, or the file system's "No space left") stops writes. */
  void noteFailure(IOException e) {
    if (e instanceof FragmentIndex.OutOfSpaceException || String.valueOf(e.getMessage()).contains("No space left")) {
      outOfSpace = e.getMessage();
    }
  }

  /** While out of space: whether writes work again (then they are taken again). Call with the store's lock held. */
  boolean checkWritable() {
    if (outOfSpace == null) {
      return true;
    }
    if (index.unusable() != null) {
      return false;
    }
    try {
      Path probe = dir.resolve("space-probe");
      Files.write(probe, new byte[PROBE_BYTES]);
      Files.delete(probe);
    } catch (IOException e) {
      return false; // still no room
    }
    if (!index.probeWrite()) {
      try {
        index.reopen();
      } catch (IOException e) {
        outOfSpace = e.getMessage(); // unusable from now on: every call fails with this message
        return false;
      }
      if (!index.probeWrite()) {
        return false;
      }
    }
    outOfSpace = null;
    return true;
  }
}
