package org.cairn.tracker.group;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;

/**
 * The group's snapshots in the Raft storage's state-machine directory: {@code snapshot.TERM_INDEX/},
 * each a RocksDB checkpoint of the store as of that log entry. Ratis sends the newest one's files to a
 * member too far behind for the log, and purges the log up to it.
 */
final class SnapshotDirs implements StateMachineStorage {
  private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");

  private volatile File dir;

  /** One snapshot: its directory and log position. */
  record Snapshot(Path dir, long term, long index) {}

  @Override
  public void init(RaftStorage storage) throws IOException {
    dir = storage.getStorageDir().getStateMachineDir();
    Files.createDirectories(dir.toPath());
  }

  Path dir() {
    return dir.toPath();
  }

  Path pathFor(long term, long index) {
    return dir().resolve("snapshot." + term + "_" + index);
  }

  /** The newest complete snapshot, if any. */
  Optional<Snapshot> latest() {
    File[] all = dir == null ? null : dir.listFiles();
    if (all == null) {
      return Optional.empty();
    }
    Snapshot best = null;
    for (File f : all) {
      Matcher m = NAME.matcher(f.getName());
      if (f.isDirectory() && m.matches()) {
        Snapshot s = new Snapshot(f.toPath(), Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
        if (best == null || s.index() > best.index()) {
          best = s;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  @Override
  public SnapshotInfo getLatestSnapshot() {
    Optional<Snapshot> s = latest();
    if (s.isEmpty()) {
      return null;
    }
    List<FileInfo> files = new ArrayList<>();
    try (var list = Files.list(s.get().dir())) {
      for (Path f : list.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().endsWith(".md5")).sorted().toList()) {
        files.add(new FileInfo(f, null)); // Ratis digests each file as it sends it
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("listing snapshot " + s.get().dir() + " failed", e);
    }
    return new FileListSnapshotInfo(files, s.get().term(), s.get().index());
  }

  @Override
  public void format() {
    // nothing: snapshots are made by takeSnapshot
  }

  @Override
  public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
    keepNewest(Math.max(1, policy == null ? 1 : policy.getNumSnapshotsRetained()));
  }

  /** Deletes all but the {@code n} newest snapshots. */
  void keepNewest(int n) throws IOException {
    File[] all = dir.listFiles();
    if (all == null) {
      return;
    }
    List<File> snapshots = new ArrayList<>();
    for (File f : all) {
      if (f.isDirectory() && NAME.matcher(f.getName()).matches()) {
        snapshots.add(f);
      }
    }
    snapshots.sort(Comparator.comparingLong((File f) -> {
      Matcher m = NAME.matcher(f.getName());
      m.matches();
      return Long.parseLong(m.group(2));
    }).reversed());
    for (File old : snapshots.subList(Math.min(n, snapshots.size()), snapshots.size())) {
      try (var paths = Files.walk(old.toPath())) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
