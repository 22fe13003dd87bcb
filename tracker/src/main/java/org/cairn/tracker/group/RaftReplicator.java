package org.cairn.tracker.group;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.cairn.tracker.store.NotCommittedException;
import org.cairn.tracker.store.TrackerStore;

/**
 * Writes through the group's log: each write is submitted to this member's own Raft server only (never
 * forwarded), so a member that is no longer the leader fails the write instead of having stale state
 * applied through the new leader; the call returns once the entry is committed and applied here.
 */
final class RaftReplicator implements TrackerStore.Replicator {
  private final RaftServer server;
  private final RaftPeerId self;
  private final RaftGroupId group;
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();
  private final Duration timeout;

  RaftReplicator(RaftServer server, RaftPeerId self, RaftGroupId group, Duration timeout) {
    this.server = server;
    this.self = self;
    this.group = group;
    this.timeout = timeout;
  }

  @Override
  public void replicate(byte[] encodedBatch) throws IOException {
    submit(LogEntries.batch(encodedBatch));
  }

  /** Appends one entry and waits until this member applied it. */
  void submit(byte[] entry) throws IOException {
    RaftClientRequest req = RaftClientRequest.newBuilder().setClientId(clientId).setServerId(self).setGroupId(group)
        .setCallId(callIds.incrementAndGet()).setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(entry)))
        .setType(RaftClientRequest.writeRequestType()).build();
    RaftClientReply reply;
    try {
      reply = server.submitClientRequestAsync(req).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the tracker group committed a write", e);
    } catch (TimeoutException e) {
      throw new NotCommittedException("the tracker group did not commit a write within " + timeout.toMillis()
          + " ms (is a majority of its members up?)", null);
    } catch (ExecutionException e) {
      throw new IOException("the tracker group refused a write: " + e.getCause(), e.getCause());
    }
    if (!reply.isSuccess()) {
      if (reply.getNotLeaderException() != null) {
        RaftPeerId leader = reply.getNotLeaderException().getSuggestedLeader() == null ? null
            : reply.getNotLeaderException().getSuggestedLeader().getId();
        throw new NotCommittedException("tracker " + self + " is no longer the leader of its group"
            + (leader == null ? "" : " (" + leader + " is)"), leader == null ? null : leader.toString());
      }
      throw new IOException("the tracker group did not commit a write: " + reply.getException(), reply.getException());
    }
  }
}
