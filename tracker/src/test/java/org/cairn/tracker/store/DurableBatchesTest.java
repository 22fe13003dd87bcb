package org.cairn.tracker.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * A lone tracker's batches (what a commit writes) reach the disk before {@link TrackerStore#write} returns: RocksDB
 * counts a synced WAL for each; single puts (heartbeats) do not sync; what a group member applies from the group's
 * log (synced there) is not synced again.
 */
class DurableBatchesTest {
  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aLoneTrackersBatchesAreSynced_itsSinglePutsAndReplicatedAppliesAreNot() throws Exception {
    try (Statistics stats = new Statistics(); TrackerStore store = TrackerStore.open(dir.resolve("db"), stats)) {
      long before = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
      for (int i = 0; i < 5; i++) {
        store.put(TrackerStore.Family.PEERS, b("peer-" + i), b("heartbeat"));
      }
      assertThat(stats.getTickerCount(TickerType.WAL_FILE_SYNCED)).as("heartbeat-like puts").isEqualTo(before);

      store.write(new Batch().put(TrackerStore.Family.VERSIONS, b("app/n/1"), b("v")).put(TrackerStore.Family.CHUNKS, b("c"), b("1")));
      long afterCommit = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
      assertThat(afterCommit).as("a commit's batch").isEqualTo(before + 1);
      store.write(new Batch().delete(TrackerStore.Family.VERSIONS, b("app/n/1")));
      assertThat(stats.getTickerCount(TickerType.WAL_FILE_SYNCED)).as("a delete's batch").isEqualTo(afterCommit + 1);

      store.applyReplicated(new Batch().put(TrackerStore.Family.VERSIONS, b("app/n/2"), b("v")).encode(), new byte[16]);
      assertThat(stats.getTickerCount(TickerType.WAL_FILE_SYNCED)).as("applied from a group's log").isEqualTo(afterCommit + 1);
      assertThat(store.get(TrackerStore.Family.VERSIONS, b("app/n/2"))).isEqualTo(b("v"));
    }
  }
}
