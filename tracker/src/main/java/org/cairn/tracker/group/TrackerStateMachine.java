package org.cairn.tracker.group;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the group's log to this member's store, in log order, on every member (the leader too: a
 * write returns to its caller once applied here). Each batch is written to RocksDB atomically with
 * its log position, so after a restart the entries already applied are skipped, not applied twice.
 * Deterministic: an entry is the changes themselves, computed once by the leader.
 *
 * <p>It also passes Ratis's role events on to a {@link RoleEvents} (the member), which acts on them:
 * this member is ready to lead, it stopped leading, another member leads.
 */
final class TrackerStateMachine extends BaseStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerStateMachine.class);

  private final TrackerStore store;
  private final Path dataDir;
  private final RoleEvents roles;
  private final SnapshotDirs storage = new SnapshotDirs();
  /** The last log index this member's store holds (read at start). */
  private volatile long appliedInStore;

  TrackerStateMachine(TrackerStore store, Path dataDir, RoleEvents roles) {
    this.store = store;
    this.dataDir = dataDir;
    this.roles = roles;
  }

  /**
   * Ratis: this member leads and has applied its term's first entry, so every entry an earlier leader
   * committed is applied here. Called on the thread that applies entries: the member must not wait
   * here for an entry to be applied.
   */
  @Override
  public void notifyLeaderReady() {
    roles.leaderReady();
  }

  /** Ratis: this member stopped leading (it stepped down or is shutting down). */
  @Override
  public void notifyNotLeader(java.util.Collection<TransactionContext> pending) {
    roles.notLeader();
  }

  /** Ratis: {@code leader} was elected (this member or another). */
  @Override
  public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId leader) {
    if (leader != null) {
      roles.leaderChanged(leader.toString());
    }
  }

  @Override
  public synchronized void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
    getLifeCycle().startAndTransition(() -> {
      super.initialize(server, groupId, raftStorage);
      storage.init(raftStorage);
      appliedInStore = storedPosition();
      if (appliedInStore >= 0 && freshLog(raftStorage) && storage.latest().isEmpty()) {
        // a store restored from a backup, or seeded by copying one member's: its log positions are another
        // log's; this log starts from 0 on top of it (every member must start from the same copy)
        LOG.warn("this member's log is new but its store held a log up to entry {}: starting the new log on top of the store"
            + " as it is (every member of a new group must start from the same copy of the data directory)", appliedInStore);
        store.delete(TrackerStore.Family.CLUSTER, TrackerStore.APPLIED);
        appliedInStore = -1;
      }
      loadNewerSnapshot();
      LOG.info("store holds the group's log up to entry {}", appliedInStore);
    }, IOException.class);
  }

  /** Before Ratis installs a snapshot from the leader (nothing is applied until {@link #reinitialize}). */
  @Override
  public synchronized void pause() {
    if (getLifeCycle().getCurrentState() == org.apache.ratis.util.LifeCycle.State.RUNNING) {
      getLifeCycle().transition(org.apache.ratis.util.LifeCycle.State.PAUSING);
      getLifeCycle().transition(org.apache.ratis.util.LifeCycle.State.PAUSED);
    }
  }

  private static boolean freshLog(RaftStorage raftStorage) throws IOException {
    java.io.File[] files = raftStorage.getStorageDir().getCurrentDir().listFiles((d, name) -> name.startsWith("log_"));
    return files == null || files.length == 0;
  }

  private long storedPosition() throws IOException {
    byte[] applied = store.get(TrackerStore.Family.CLUSTER, TrackerStore.APPLIED);
    return applied == null ? -1 : ByteBuffer.wrap(applied).getLong(8);
  }

  /**
   * After Ratis installed a snapshot from the leader (this member was too far behind for the log):
   * the store becomes the snapshot's.
   */
  @Override
  public synchronized void reinitialize() throws IOException {
    loadNewerSnapshot();
    if (getLifeCycle().getCurrentState() == org.apache.ratis.util.LifeCycle.State.PAUSED) {
      getLifeCycle().transition(org.apache.ratis.util.LifeCycle.State.STARTING);
      getLifeCycle().transition(org.apache.ratis.util.LifeCycle.State.RUNNING);
    }
  }

  /** Restores the store from the newest snapshot if it is ahead of the store; then reports its position. */
  private void loadNewerSnapshot() throws IOException {
    java.util.Optional<SnapshotDirs.Snapshot> latest = storage.latest();
    if (latest.isEmpty()) {
      return;
    }
    SnapshotDirs.Snapshot s = latest.get();
    if (s.index() > appliedInStore) {
      store.restoreFrom(s.dir());
      int[] files = {0};
      store.scan(TrackerStore.Family.CLUSTER, FILE_PREFIX, (key, value) -> {
        String relative = new String(key, FILE_PREFIX.length, key.length - FILE_PREFIX.length, java.nio.charset.StandardCharsets.UTF_8);
        LogEntries.file(relative, value); // refuses a name the log would not write
        writeFile(dataDir.resolve(relative), value);
        files[0]++;
        return true;
      });
      LOG.info("wrote the {} shared files the snapshot holds", files[0]);
      long position = storedPosition();
      LOG.info("restored the store from the group's snapshot at entry {} (it holds the log up to entry {})", s.index(), position);
      appliedInStore = position;
    }
    if (getLastAppliedTermIndex() == null || getLastAppliedTermIndex().getIndex() < s.index()) {
      setLastAppliedTermIndex(org.apache.ratis.server.protocol.TermIndex.valueOf(s.term(), s.index()));
    }
  }

  /**
   * A snapshot as of the last entry applied (Ratis calls this on the thread that applies entries, so
   * none is applied meanwhile): a RocksDB checkpoint, hard-linked where it can be. The log up to it
   * may then be purged.
   */
  @Override
  public long takeSnapshot() throws IOException {
    org.apache.ratis.server.protocol.TermIndex last = getLastAppliedTermIndex();
    if (last == null || last.getIndex() < 0) {
      return org.apache.ratis.server.raftlog.RaftLog.INVALID_LOG_INDEX;
    }
    Path target = storage.pathFor(last.getTerm(), last.getIndex());
    if (!Files.exists(target)) {
      long started = System.nanoTime();
      Path tmp = storage.dir().resolve(".tmp-" + target.getFileName());
      org.cairn.core.util.FileTrees.delete(tmp);
      store.checkpoint(tmp);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      storage.keepNewest(2);
      LOG.info("snapshot of the store at entry {} in {} ms", last.getIndex(), (System.nanoTime() - started) / 1_000_000);
    }
    return last.getIndex();
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return storage;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    long index = entry.getIndex();
    try {
      if (index > appliedInStore) {
        apply(entry.getStateMachineLogEntry().getLogData().toByteArray(), entry.getTerm(), index);
      }
      updateLastAppliedTermIndex(entry.getTerm(), index);
      return CompletableFuture.completedFuture(Message.EMPTY);
    } catch (IOException | RuntimeException e) {
      LOG.error("applying log entry {} failed; this member's store stops at entry {}", index, appliedInStore, e);
      return CompletableFuture.failedFuture(e);
    }
  }

  private void apply(byte[] data, long term, long index) throws IOException {
    byte[] position = ByteBuffer.allocate(16).putLong(term).putLong(index).array();
    if (data.length > 0 && (data[0] == LogEntries.BATCH || data[0] == LogEntries.ZBATCH)) {
      store.applyReplicated(LogEntries.batchOf(data), position);
    } else if (data.length > 0 && data[0] == LogEntries.FILE) {
      LogEntries.SharedFile f = LogEntries.readFile(data);
      writeFile(dataDir.resolve(f.relative()), f.content());
      // kept in the store too, so a snapshot carries the shared files to a member that installs it
      store.applyReplicated(new Batch().put(TrackerStore.Family.CLUSTER, fileKey(f.relative()), f.content()).encode(), position);
    } else {
      throw new IOException("log entry " + index + " is " + LogEntries.describe(data) + ", not one this tracker writes");
    }
    appliedInStore = index;
  }

  private static final byte[] FILE_PREFIX = "file/".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private static byte[] fileKey(String relative) {
    return ("file/" + relative).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Writes a shared file whole (mode 0600), replacing any older one atomically. */
  private static void writeFile(Path target, byte[] content) throws IOException {
    Files.createDirectories(target.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.write(tmp, content);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
