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
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the group's log to this member's store, in log order, on every member (the leader too: a
 * write returns to its caller once applied here). Each batch is written to RocksDB atomically with
 * its log position, so after a restart the entries already applied are skipped, not applied twice.
 * Deterministic: an entry is the changes themselves, computed once by the leader.
 */
final class TrackerStateMachine extends BaseStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerStateMachine.class);

  private final TrackerStore store;
  private final Path dataDir;
  private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
  /** The last log index this member's store holds (read at start). */
  private volatile long appliedInStore;

  TrackerStateMachine(TrackerStore store, Path dataDir) {
    this.store = store;
    this.dataDir = dataDir;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
    super.initialize(server, groupId, raftStorage);
    storage.init(raftStorage);
    byte[] applied = store.get(TrackerStore.Family.CLUSTER, TrackerStore.APPLIED);
    appliedInStore = applied == null ? -1 : ByteBuffer.wrap(applied).getLong(8);
    LOG.info("store holds the group's log up to entry {}", appliedInStore);
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
    if (data.length > 0 && data[0] == LogEntries.BATCH) {
      store.applyReplicated(LogEntries.batchOf(data), position);
    } else if (data.length > 0 && data[0] == LogEntries.FILE) {
      LogEntries.SharedFile f = LogEntries.readFile(data);
      writeFile(dataDir.resolve(f.relative()), f.content());
      store.applyReplicated(new TrackerStore.Batch().encode(), position);
    } else {
      throw new IOException("log entry " + index + " is " + LogEntries.describe(data) + ", not one this tracker writes");
    }
    appliedInStore = index;
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
