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

  /** The snapshots here, newest first. */
  List<Snapshot> all() {
    File[] files = dir == null ? null : dir.listFiles();
    List<Snapshot> out = new ArrayList<>();
    for (File f : files == null ? new File[0] : files) {
      Matcher m = NAME.matcher(f.getName());
      if (f.isDirectory() && m.matches()) {
        out.add(new Snapshot(f.toPath(), Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
      }
    }
    out.sort(Comparator.comparingLong(Snapshot::index).reversed());
    return out;
  }

  /** The newest complete snapshot, if any. */
  Optional<Snapshot> latest() {
    return all().stream().findFirst();
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
    List<Snapshot> all = all();
    for (Snapshot old : all.subList(Math.min(n, all.size()), all.size())) {
      org.cairn.core.util.FileTrees.delete(old.dir());
    }
  }

}
