package org.cairn.tracker.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TrackerStore#lastKey}: the greatest key under a prefix, never one of a neighbouring prefix. */
class LastKeyTest {
  @TempDir
  Path dir;

  private static byte[] key(String prefix, long step) {
    byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(p.length + 8).put(p).putLong(step).array();
  }

  @Test
  void findsTheGreatestKeyUnderItsPrefixOnly() throws Exception {
    try (TrackerStore store = TrackerStore.open(dir.resolve("db"))) {
      byte[] prefix = "app\u0000n\u0000".getBytes(StandardCharsets.UTF_8);
      assertThat(store.lastKey(TrackerStore.Family.VERSIONS, prefix, 8)).as("empty").isNull();
      for (long step : new long[] {1, 255, 256, 1L << 40, 7}) {
        store.put(TrackerStore.Family.VERSIONS, key("app\u0000n\u0000", step), new byte[] {1});
      }
      // neighbours on both sides: a node sorting before, one sorting after, another app
      store.put(TrackerStore.Family.VERSIONS, key("app\u0000m\u0000", Long.MAX_VALUE), new byte[] {1});
      store.put(TrackerStore.Family.VERSIONS, key("app\u0000n2\u0000", Long.MAX_VALUE), new byte[] {1});
      store.put(TrackerStore.Family.VERSIONS, key("app\u0000o\u0000", 3), new byte[] {1});
      store.put(TrackerStore.Family.VERSIONS, key("apq\u0000n\u0000", 9), new byte[] {1});
      byte[] last = store.lastKey(TrackerStore.Family.VERSIONS, prefix, 8);
      assertThat(ByteBuffer.wrap(last, last.length - 8, 8).getLong()).isEqualTo(1L << 40);
      assertThat(store.lastKey(TrackerStore.Family.VERSIONS, "app\u0000p\u0000".getBytes(StandardCharsets.UTF_8), 8)).isNull();
      assertThat(store.lastKey(TrackerStore.Family.CHUNKS, prefix, 8)).as("another family").isNull();
    }
  }
}
