package org.cairn.tracker.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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
      long[] stored = {0};
      store.scan(TrackerStore.Family.EVENTS, new byte[0], (k, v) -> {
        stored[0]++;
        return true;
      });
      assertThat(stored[0]).as("older events are deleted from the store, up to 100 at a time").isBetween(50L, 150L);
    }
    try (TrackerStore store = TrackerStore.open(dir)) {
      EventLog log = new EventLog(clock, 50, store);
      assertThat(log.since(0, 1000)).hasSize(50).last().extracting(EventLog.Event::subject).isEqualTo("a.n.250");
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
