package org.cairn.client.bases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecordSlotsTest {
  @Test
  void findsWhatWasPutThroughGrowthAndKeepsTheFirstOfAKey() {
    RecordSlots slots = new RecordSlots(4);
    Random r = new Random(7);
    Map<Long, RecordSlots.Place> want = new HashMap<>();
    for (int i = 0; i < 50_000; i++) {
      long key = r.nextLong();
      RecordSlots.Place p = new RecordSlots.Place(r.nextInt(300), r.nextInt(Integer.MAX_VALUE), r.nextInt(256 << 20));
      assertTrue(slots.putIfAbsent(key, p.pack(), p.offset(), p.length()));
      want.put(key, p);
    }
    assertEquals(50_000, slots.size());
    want.forEach((key, p) -> assertEquals(p, slots.find(key)));
    long some = want.keySet().iterator().next();
    assertFalse(slots.putIfAbsent(some, 1, 2, 3), "the first record of a key stays");
    assertEquals(want.get(some), slots.find(some));
    assertNull(slots.find(r.nextLong()));
  }

  @Test
  void keysThatCollideInTheTableAreAllFound() {
    RecordSlots slots = new RecordSlots(16); // 32 slots
    // twelve keys with the same first slot: each probes past the ones before it
    long[] keys = new long[12];
    int n = 0;
    for (long k = 1; n < keys.length; k++) {
      if (RecordSlots.slot(k, 31) == RecordSlots.slot(1, 31)) {
        keys[n++] = k;
      }
    }
    for (int i = 0; i < keys.length; i++) {
      assertTrue(slots.putIfAbsent(keys[i], i, i * 10L, i));
    }
    slots.remove(keys[3], 3, 30); // a tombstone in the middle of the run: the keys after it are still found
    for (int i = 0; i < keys.length; i++) {
      assertEquals(i == 3 ? null : new RecordSlots.Place(i, i * 10L, i), slots.find(keys[i]), "key " + i);
    }
  }

  @Test
  void removedRecordsAreMissesAndTheirSlotsAreUsedAgain() {
    RecordSlots slots = new RecordSlots(16);
    for (long k = 1; k <= 100; k++) {
      slots.putIfAbsent(k, (int) (k % 3), k, 1);
    }
    slots.remove(5, 2, 5); // pack 2, offset 5: record 5
    slots.remove(6, 1, 7); // not where record 6 is (pack 0, offset 6): kept
    assertNull(slots.find(5));
    assertEquals(new RecordSlots.Place(0, 6, 1), slots.find(6));
    slots.removePack(1);
    for (long k = 1; k <= 100; k++) {
      if (k % 3 == 1 || k == 5) {
        assertNull(slots.find(k), "key " + k);
      } else {
        assertEquals(new RecordSlots.Place((int) (k % 3), k, 1), slots.find(k), "key " + k);
      }
    }
    assertEquals(100 - 34 - 1, slots.size());
    // removing and adding many times over never fills the table with tombstones
    for (long k = 1000; k < 100_000; k++) {
      assertTrue(slots.putIfAbsent(k, 4, k, 1));
      slots.remove(k, 4, k);
    }
    assertEquals(65, slots.size());
    assertTrue(slots.putIfAbsent(5, 9, 9, 9), "a removed key is indexed again");
    assertEquals(new RecordSlots.Place(9, 9, 9), slots.find(5));
  }

  @Test
  void placesOutsideTheTableAreRefused() {
    RecordSlots slots = new RecordSlots(16);
    assertThrows(IllegalArgumentException.class, () -> slots.putIfAbsent(1, 0, 1L << 31, 1));
    assertThrows(IllegalArgumentException.class, () -> slots.putIfAbsent(1, -1, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> slots.putIfAbsent(1, 0, 0, -1));
  }
}
