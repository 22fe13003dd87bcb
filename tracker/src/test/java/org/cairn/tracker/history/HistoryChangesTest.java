package org.cairn.tracker.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history's change count, which placement compares to tell whether its CRLS scores are still current. */
class HistoryChangesTest {
  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private TrackerStore store;
  private History history;

  @BeforeEach
  void open() throws IOException {
    store = TrackerStore.open(dir);
    history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(1));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void everyWriteChangesTheCount_andReadsDoNot() throws IOException {
    long start = history.changes();
    history.sample(Map.of("p1", HostState.RUNNING), Map.of("c1", true));
    long sampled = history.changes();
    assertThat(sampled).isNotEqualTo(start);
    history.storageSeries("p1", 0, history.currentSlot() + 1);
    history.computeSeries("c1", 0, history.currentSlot() + 1);
    assertThat(history.changes()).as("reads").isEqualTo(sampled);
    history.record(true, "p1", history.currentSlot(), (byte) HostState.LOADED.code());
    long recorded = history.changes();
    assertThat(recorded).isNotEqualTo(sampled);
    byte[] block = new byte[History.BLOCK];
    Arrays.fill(block, StateSeries.UNKNOWN);
    history.importBlock(true, "p2", history.currentSlot() / History.BLOCK, block);
    long imported = history.changes();
    assertThat(imported).isNotEqualTo(recorded);
    assertThat(history.prune()).as("nothing old enough").isZero();
    assertThat(history.changes()).as("a prune that deleted nothing").isEqualTo(imported);
    clock.advance(Duration.ofDays(3));
    assertThat(history.prune()).isPositive();
    assertThat(history.changes()).isNotEqualTo(imported);
  }
}
