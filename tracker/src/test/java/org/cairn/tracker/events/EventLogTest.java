package org.cairn.tracker.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogTest {
  @TempDir
  Path dir;
  private final Clock clock = Clock.fixed(Instant.parse("2026-11-25T12:00:00Z"), ZoneOffset.UTC);

  @Test
  void eventsSurviveARestartAndAreNumberedOn() throws Exception {
    try (TrackerStore store = TrackerStore.open(dir)) {
      EventLog log = new EventLog(clock, 10, store);
      log.add("joined", "p1", "at 127.0.0.1:1");
      log.add("down", "p1", "missed heartbeats");
    }
    try (TrackerStore store = TrackerStore.open(dir)) {
      EventLog log = new EventLog(clock, 10, store);
      assertThat(log.since(0, 100)).extracting(EventLog.Event::kind).containsExactly("joined", "down");
      log.add("rejoined", "p1", "at 127.0.0.1:2");
      assertThat(log.since(2, 100)).extracting(EventLog.Event::seq).containsExactly(3L);
    }
  }

  @Test
  void onlyTheNewestAreKeptInMemoryAndInTheStore() throws Exception {
    try (TrackerStore store = TrackerStore.open(dir)) {
      EventLog log = new EventLog(clock, 50, store);
      for (int i = 1; i <= 250; i++) {
        log.add("committed", "a.n." + i, "version " + i);
      }
      assertThat(log.since(0, 1000)).hasSize(50).first().extracting(EventLog.Event::seq).isEqualTo(201L);
      store.flushSoon();
      assertThat(log.pruneStored()).isEqualTo(200);
      long[] stored = {0};
      store.scan(TrackerStore.Family.EVENTS, new byte[0], (k, v) -> {
        stored[0]++;
        return true;
      });
      assertThat(stored[0]).as("older events are deleted from the store").isEqualTo(50);
    }
    try (TrackerStore store = TrackerStore.open(dir)) {
      EventLog log = new EventLog(clock, 50, store);
      assertThat(log.since(0, 1000)).hasSize(50).last().extracting(EventLog.Event::subject).isEqualTo("a.n.250");
    }
  }

  @Test
  void addingEventsNeverWritesTheLogAtOnce_theSchedulersPruneDeletesWhatFellOffInOneEntry() throws Exception {
    try (TrackerStore store = TrackerStore.open(dir)) {
      List<byte[]> log = new ArrayList<>();
      long[] index = {0};
      store.replicateThrough(entry -> {
        log.add(entry);
        store.applyReplicated(entry, ByteBuffer.allocate(16).putLong(1).putLong(++index[0]).array());
      });
      EventLog events = new EventLog(clock, 100, store);
      for (int i = 1; i <= 1000; i++) {
        events.add("state", "p" + i, "BUSY (was RUNNING)");
      }
      assertThat(log).as("no entry while events are added (each hundredth wrote one before)").isEmpty();
      assertThat(events.pruneStored()).isEqualTo(900);
      assertThat(log).as("one entry for the 900 deletes").hasSize(1);
      assertThat(events.pruneStored()).isZero();
      events.add("state", "p0", "RUNNING (was BUSY)");
      assertThat(events.pruneStored()).as("fewer than 100 more fell off").isZero();
      assertThat(store.flushSoon()).as("the deletes superseded the waiting events they delete").isEqualTo(101);
      long[] stored = {0};
      store.scan(TrackerStore.Family.EVENTS, new byte[0], (k, v) -> {
        stored[0]++;
        return true;
      });
      assertThat(stored[0]).isEqualTo(101);
    }
  }

  @Test
  void withoutAStoreEventsLiveInMemory() {
    EventLog log = new EventLog(clock, 2);
    log.add("a", "s", "m");
    log.add("b", "s", "m");
    log.add("c", "s", "m");
    assertThat(log.since(0, 10)).extracting(EventLog.Event::kind).containsExactly("b", "c");
  }
}
