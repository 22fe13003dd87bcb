package org.cairn.tracker.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * A commit looks up every chunk it names in the chunk index, and nearly all are new: a lookup of a key the database
 * does not hold is answered by the table files' Bloom filters, without reading their data blocks ({@link OpenDb}).
 */
class MissingKeyLookupsTest {
  @TempDir
  Path dir;

  private static byte[] key(Random r) {
    byte[] k = new byte[40];
    r.nextBytes(k);
    return k;
  }

  @Test
  void lookupsOfKeysTheIndexDoesNotHoldAreAnsweredByTheFilters_notByReadingTableFiles() throws Exception {
    Path db = dir.resolve("db");
    Random random = new Random(7);
    try (TrackerStore store = TrackerStore.open(db, null)) {
      for (int b = 0; b < 20; b++) {
        Batch batch = new Batch();
        for (int i = 0; i < 1000; i++) {
          batch.put(TrackerStore.Family.CHUNKS, key(random), ByteBuffer.allocate(8).putLong(i).array());
        }
        store.write(batch);
      }
    }
    // reopening replays the log into a level-0 table file, so the lookups below read table files, not the memtable
    try (Statistics stats = new Statistics(); TrackerStore store = TrackerStore.open(db, stats)) {
      Random held = new Random(7);
      byte[] first = key(held);
      assertThat(store.get(TrackerStore.Family.CHUNKS, first)).as("a key the index holds").isNotNull();
      long useful = stats.getTickerCount(TickerType.BLOOM_FILTER_USEFUL);
      long blocksRead = stats.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) + stats.getTickerCount(TickerType.BLOCK_CACHE_DATA_HIT);
      Random other = new Random(11);
      for (int i = 0; i < 1000; i++) {
        assertThat(store.get(TrackerStore.Family.CHUNKS, key(other))).isNull();
      }
      assertThat(stats.getTickerCount(TickerType.BLOOM_FILTER_USEFUL) - useful).as("misses the filters answered").isGreaterThan(950);
      long read = stats.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) + stats.getTickerCount(TickerType.BLOCK_CACHE_DATA_HIT)
          - blocksRead;
      assertThat(read).as("data blocks read for 1,000 misses").isLessThan(50);
    }
  }

  @Test
  void aBatchOfLookupsAnswersAsManyGetsWould_inOrder_withPutsThatWaitAndKeysNoneHolds() throws Exception {
    try (TrackerStore store = TrackerStore.open(dir.resolve("db"), null)) {
      byte[] a = "a".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      byte[] b = "b".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      byte[] c = "c".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      store.write(new Batch().put(TrackerStore.Family.CHUNKS, a, b("1")).put(TrackerStore.Family.CHUNKS, c, b("3"))
          .put(TrackerStore.Family.VERSIONS, b, b("other family")));
      store.putSoon(TrackerStore.Family.CHUNKS, c, b("3, newer"));
      java.util.List<byte[]> keys = java.util.List.of(c, b, a, b);
      java.util.List<byte[]> values = store.getAll(TrackerStore.Family.CHUNKS, keys);
      assertThat(values).containsExactly(b("3, newer"), null, b("1"), null);
      for (int i = 0; i < keys.size(); i++) {
        assertThat(values.get(i)).isEqualTo(store.get(TrackerStore.Family.CHUNKS, keys.get(i)));
      }
      assertThat(store.getAll(TrackerStore.Family.CHUNKS, java.util.List.of())).isEmpty();
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
