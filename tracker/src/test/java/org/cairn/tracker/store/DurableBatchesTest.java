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

  /**
   * A lone tracker's heartbeat records wait in memory: putting one touches no RocksDB write (so no sync a commit is in
   * can hold it), reads and scans see it at once, the next flush writes it unsynced, a newer direct write of its key wins
   * over it, and closing the store writes what still waits.
   */
  @Test
  void aLoneTrackersHeartbeatRecordsNeverWaitForTheDisk_yetAreReadAndKept() throws Exception {
    Path db = dir.resolve("db");
    try (Statistics stats = new Statistics(); TrackerStore store = TrackerStore.open(db, stats)) {
      long keys = stats.getTickerCount(TickerType.NUMBER_KEYS_WRITTEN);
      store.putSoon(TrackerStore.Family.PEERS, b("p1"), b("beat-1"));
      store.putSoon(TrackerStore.Family.PEERS, b("p1"), b("beat-2"));
      store.putSoon(TrackerStore.Family.PEERS, b("p2"), b("beat-1"));
      assertThat(stats.getTickerCount(TickerType.NUMBER_KEYS_WRITTEN)).as("nothing written yet").isEqualTo(keys);
      assertThat(store.get(TrackerStore.Family.PEERS, b("p1"))).isEqualTo(b("beat-2"));

      long synced = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
      assertThat(store.flushSoon()).isEqualTo(2);
      assertThat(stats.getTickerCount(TickerType.NUMBER_KEYS_WRITTEN)).isEqualTo(keys + 2);
      assertThat(stats.getTickerCount(TickerType.WAL_FILE_SYNCED)).as("heartbeats are not synced").isEqualTo(synced);
      assertThat(store.flushSoon()).isZero();

      store.putSoon(TrackerStore.Family.PEERS, b("p1"), b("stale"));
      store.put(TrackerStore.Family.PEERS, b("p1"), b("left")); // a peer leaving: a direct write, newer
      assertThat(store.flushSoon()).isZero();
      assertThat(store.get(TrackerStore.Family.PEERS, b("p1"))).isEqualTo(b("left"));

      store.putSoon(TrackerStore.Family.PEERS, b("p3"), b("beat-1"));
      java.util.List<String> scanned = new java.util.ArrayList<>();
      store.scan(TrackerStore.Family.PEERS, new byte[0], (k, v) -> scanned.add(new String(k, StandardCharsets.UTF_8)));
      assertThat(scanned).containsExactly("p1", "p2", "p3");
      store.putSoon(TrackerStore.Family.COMPUTE, b("c1"), b("beat-1")); // waits until the close
    }
    try (TrackerStore again = TrackerStore.open(db, null)) {
      assertThat(again.get(TrackerStore.Family.PEERS, b("p1"))).isEqualTo(b("left"));
      assertThat(again.get(TrackerStore.Family.PEERS, b("p3"))).isEqualTo(b("beat-1"));
      assertThat(again.get(TrackerStore.Family.COMPUTE, b("c1"))).isEqualTo(b("beat-1"));
    }
  }
}
