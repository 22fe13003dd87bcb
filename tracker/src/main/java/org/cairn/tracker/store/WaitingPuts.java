package org.cairn.tracker.store;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Puts that may wait to be written together ({@link TrackerStore#putSoon}): a group's replicated as one log entry, a lone
 * tracker's written as one batch; the newest value per key, drained as one {@link Batch}. Thread-safe.
 */
final class WaitingPuts {
  private record Key(TrackerStore.Family family, ByteBuffer key) {}

  private final Map<Key, byte[]> puts = new LinkedHashMap<>();

  synchronized void put(TrackerStore.Family f, byte[] key, byte[] value) {
    puts.put(new Key(f, ByteBuffer.wrap(key)), value);
  }

  /** The waiting value of a key, or null. */
  synchronized byte[] get(TrackerStore.Family f, byte[] key) {
    return puts.get(new Key(f, ByteBuffer.wrap(key)));
  }

  /** Forgets the waiting puts of the keys {@code batch} writes (it is newer). */
  synchronized void supersede(Batch batch) {
    for (Batch.Op op : batch.ops) {
      puts.remove(new Key(op.family(), ByteBuffer.wrap(op.key())));
    }
  }

  /** Whether a put to family {@code f} waits. */
  synchronized boolean holds(TrackerStore.Family f) {
    for (Key k : puts.keySet()) {
      if (k.family() == f) {
        return true;
      }
    }
    return false;
  }

  synchronized void clear() {
    puts.clear();
  }

  /** Every waiting put as one batch (empty if none), and none waits any more. */
  synchronized Batch drain() {
    Batch batch = new Batch();
    for (Map.Entry<Key, byte[]> e : puts.entrySet()) {
      batch.put(e.getKey().family(), e.getKey().key().array(), e.getValue());
    }
    puts.clear();
    return batch;
  }
}
