package org.cairn.tracker.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tracker group's write path: batches as log entries, and heartbeat records replicated together. */
class ReplicatedWritesTest {
  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aBatchSurvivesEncodingWithPutsDeletesAndEmptyValues() throws IOException {
    Batch batch = new Batch().put(TrackerStore.Family.VERSIONS, b("k1"), b("v1"))
        .delete(TrackerStore.Family.CHUNKS, b("gone")).put(TrackerStore.Family.CLUSTER, b("empty"), new byte[0]);
    byte[] encoded = batch.encode();
    try (TrackerStore a = TrackerStore.open(dir.resolve("a"))) {
      a.put(TrackerStore.Family.CHUNKS, b("gone"), b("x"));
      a.applyReplicated(encoded, ByteBuffer.allocate(16).putLong(1).putLong(7).array());
      assertThat(a.get(TrackerStore.Family.VERSIONS, b("k1"))).isEqualTo(b("v1"));
      assertThat(a.get(TrackerStore.Family.CHUNKS, b("gone"))).isNull();
      assertThat(a.get(TrackerStore.Family.CLUSTER, b("empty"))).isEmpty();
      assertThat(ByteBuffer.wrap(a.get(TrackerStore.Family.CLUSTER, TrackerStore.APPLIED)).getLong(8)).isEqualTo(7);
    }
    assertThat(Batch.decode(encoded).size()).isEqualTo(3);
  }

  @Test
  void malformedEntriesAreRefusedWithAReason() {
    byte[] encoded = new Batch().put(TrackerStore.Family.PEERS, b("p"), b("value")).encode();
    assertThatThrownBy(() -> Batch.decode(Arrays.copyOf(encoded, encoded.length - 2))).isInstanceOf(IOException.class)
        .hasMessageContaining("bytes where");
    byte[] badFamily = encoded.clone();
    badFamily[4] = (byte) 200;
    assertThatThrownBy(() -> Batch.decode(badFamily)).hasMessageContaining("column family 200");
    byte[] trailing = Arrays.copyOf(encoded, encoded.length + 3);
    assertThatThrownBy(() -> Batch.decode(trailing)).hasMessageContaining("after the last change");
    assertThatThrownBy(() -> Batch.decode(new byte[] {0, 0})).hasMessageContaining("ends early");
  }

  @Test
  void inAGroupWritesGoThroughTheLogAndHeartbeatRecordsWaitToGoTogether() throws IOException {
    try (TrackerStore store = TrackerStore.open(dir.resolve("g"))) {
      List<byte[]> log = new ArrayList<>();
      long[] index = {0};
      store.replicateThrough(entry -> {
        log.add(entry);
        store.applyReplicated(entry, ByteBuffer.allocate(16).putLong(1).putLong(++index[0]).array());
      });
      store.put(TrackerStore.Family.VERSIONS, b("v"), b("1"));
      assertThat(log).hasSize(1);
      assertThat(store.get(TrackerStore.Family.VERSIONS, b("v"))).isEqualTo(b("1"));

      for (int i = 0; i < 100; i++) {
        store.putSoon(TrackerStore.Family.PEERS, b("peer" + (i % 10)), b("beat" + i));
      }
      assertThat(log).as("no entry per heartbeat").hasSize(1);
      assertThat(store.get(TrackerStore.Family.PEERS, b("peer3"))).as("reads see a waiting record").isEqualTo(b("beat93"));
      assertThat(store.flushSoon()).isEqualTo(10);
      assertThat(log).as("one entry for the ten latest records").hasSize(2);
      assertThat(store.flushSoon()).isZero();

      // a write after a waiting put of the same key wins, even though the waiting one is flushed later
      store.putSoon(TrackerStore.Family.PEERS, b("peer1"), b("stale"));
      store.delete(TrackerStore.Family.PEERS, b("peer1"));
      store.flushSoon();
      assertThat(store.get(TrackerStore.Family.PEERS, b("peer1"))).isNull();
    }
  }

  @Test
  void aLoneTrackerWritesWaitingPutsAtTheNextFlush() throws IOException {
    try (TrackerStore store = TrackerStore.open(dir.resolve("lone"))) {
      store.putSoon(TrackerStore.Family.PEERS, b("p"), b("1"));
      assertThat(store.get(TrackerStore.Family.PEERS, b("p"))).isEqualTo(b("1"));
      assertThat(store.flushSoon()).isEqualTo(1); // DurableBatchesTest: what touches the disk when
      assertThat(store.get(TrackerStore.Family.PEERS, b("p"))).isEqualTo(b("1"));
    }
  }
}
