package org.cairn.tracker.group;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.cairn.core.config.HostPort;

/**
 * How a member sets up its Raft server (Ratis's typed keys): the group id, election timeouts (a
 * follower that hears nothing from the leader for a random time in 1-2 s starts an election), the
 * largest entry, snapshots and log purging, and the group's peers.
 */
final class RaftSettings {
  /** Every Cairn tracker group has this Raft group id (one group per set of members). */
  static final RaftGroupId GROUP = RaftGroupId.valueOf(UUID.nameUUIDFromBytes("cairn-tracker-group".getBytes(StandardCharsets.UTF_8)));
  static final TimeDuration ELECTION_MIN = TimeDuration.valueOf(1000, TimeUnit.MILLISECONDS);
  static final TimeDuration ELECTION_MAX = TimeDuration.valueOf(2000, TimeUnit.MILLISECONDS);
  /** The largest entry the log takes (a commit's changes): about 100,000 chunks. */
  static final SizeInBytes ENTRY_MAX = SizeInBytes.valueOf("32MB");

  private RaftSettings() {
  }

  static RaftProperties properties(Path raftDir, HostPort self, long snapshotEvery) {
    RaftProperties p = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(p, List.of(raftDir.toFile()));
    GrpcConfigKeys.Server.setHost(p, self.host());
    GrpcConfigKeys.Server.setPort(p, self.port());
    RaftServerConfigKeys.Rpc.setTimeoutMin(p, ELECTION_MIN);
    RaftServerConfigKeys.Rpc.setTimeoutMax(p, ELECTION_MAX);
    RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, ENTRY_MAX);
    RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(ENTRY_MAX.getSize() + (1 << 20)));
    GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(ENTRY_MAX.getSize() + (4 << 20)));
    // a snapshot (a RocksDB checkpoint) every snapshotEvery entries; the log is kept only after the newest one
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, snapshotEvery);
    RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
    RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(Integer.MAX_VALUE, Math.max(1, snapshotEvery / 10)));
    RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(snapshotEvery < 1000 ? "32KB" : "64MB"));
    return p;
  }

  static List<RaftPeer> peers(GroupSpec spec) {
    List<RaftPeer> peers = new ArrayList<>();
    for (Map.Entry<String, HostPort> m : spec.members().entrySet()) {
      peers.add(RaftPeer.newBuilder().setId(m.getKey()).setAddress(m.getValue().host() + ":" + m.getValue().port()).build());
    }
    return peers;
  }
}
