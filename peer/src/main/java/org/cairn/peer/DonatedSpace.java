package org.cairn.peer;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cairn.peer.store.FragmentStore;

/**
 * The space a donor gives: its quota (which the donor app may change while the peer runs), what the
 * fragment store holds against it, and what the disk has left above the donor's reserve.
 */
final class DonatedSpace {
  private final FragmentStore store;
  private final Path dataDir;
  private final long minFreeBytes;
  private volatile long quotaBytes;
  private volatile FileStore fileStore;

  DonatedSpace(FragmentStore store, Path dataDir, long quotaBytes, long minFreeBytes) {
    this.store = store;
    this.dataDir = dataDir;
    this.quotaBytes = quotaBytes;
    this.minFreeBytes = minFreeBytes;
  }

  long quotaBytes() {
    return quotaBytes;
  }

  /** Sets the quota; returns the one it replaces. */
  long setQuota(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("quota must be positive");
    }
    long before = quotaBytes;
    quotaBytes = bytes;
    return before;
  }

  /** Bytes the peer may still accept: the tighter of the quota and the disk's free space less the reserve. */
  long freeBytes() {
    if (store.outOfSpace() != null) {
      return 0; // the tracker places nothing here until writes work again
    }
    // the quota counts the segment files, dead space included: that is what the donor's disk holds
    long byQuota = quotaBytes - store.diskBytes();
    long byDisk;
    try {
      byDisk = fileStore().getUsableSpace() - minFreeBytes;
    } catch (IOException e) {
      byDisk = 0;
    }
    return Math.max(0, Math.min(byQuota, byDisk));
  }

  /** Whether {@code bytes} more would take the segment files past the quota. */
  boolean overQuotaWith(long bytes) {
    return store.diskBytes() + bytes > quotaBytes;
  }

  /**
   * Dead space (bytes of deleted fragments still in segment files) the peer lets stand before it
   * compacts for it: a tenth of the quota, at least one segment. Segments less than half live are
   * compacted anyway as fragments die; this bounds the rest, so the files stay within the quota.
   */
  long deadSpaceAllowance() {
    return Math.max(quotaBytes / 10, 64L << 20);
  }

  /**
   * The file system of the data directory, looked up once: {@code Files.getFileStore} reads the
   * mount table on every call, which cost a tenth of a PUT's CPU when it ran per PUT
   * (docs/benchmarks/journal.md); {@code getUsableSpace} on the kept store is one statvfs.
   */
  private FileStore fileStore() throws IOException {
    FileStore fs = fileStore;
    if (fs == null) {
      fs = Files.getFileStore(dataDir);
      fileStore = fs;
    }
    return fs;
  }
}
