package org.cairn.tracker.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a sample of every host reaches a tracker group's log: a few entries, not one per host. */
class HistoryWritesTest {
  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock(1_800_000_000_000L);
  private final List<byte[]> log = new ArrayList<>();
  private TrackerStore store;
  private History history;

  @BeforeEach
  void open() throws IOException {
    store = TrackerStore.open(dir);
    long[] index = {0};
    store.replicateThrough(entry -> {
      log.add(entry);
      store.applyReplicated(entry, ByteBuffer.allocate(16).putLong(1).putLong(++index[0]).array());
    });
    history = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aSampleOfFiveThousandHostsIsAFewLogEntries_andEachHostsSlotReadsBack() throws IOException {
    Map<String, HostState> hosts = new HashMap<>();
    for (int i = 0; i < 5000; i++) {
      hosts.put("p" + i, i % 3 == 0 ? HostState.BUSY : HostState.RUNNING);
    }
    history.sample(hosts, Map.of("c1", true));
    long blocks = 0;
    for (String id : hosts.keySet()) {
      blocks += 1 + id.length() + 1 + 8 + History.BLOCK;
    }
    blocks += 1 + 2 + 1 + 8 + History.BLOCK; // c1
    assertThat(log.size()).as("entries of up to %d bytes for %d bytes of blocks (one a host before)", History.WRITE_BYTES, blocks)
        .isEqualTo((int) Math.ceil(blocks / (double) History.WRITE_BYTES));
    long slot = history.currentSlot();
    assertThat(history.storageSeries("p0", slot, slot + 1).at(slot)).isEqualTo((byte) HostState.BUSY.code());
    assertThat(history.storageSeries("p4999", slot, slot + 1).at(slot)).isEqualTo((byte) HostState.RUNNING.code());
    assertThat(history.computeSeries("c1", slot, slot + 1).at(slot)).isEqualTo(StateSeries.UP);
  }

  @Test
  void samplesFillEachHostsBlockSlotBySlot_acrossTheDaysBoundary() throws IOException {
    clock.advance(Duration.ofMinutes(History.BLOCK - 2 - history.currentSlot() % History.BLOCK)); // two slots before a new block
    long first = history.currentSlot();
    for (int i = 0; i < 4; i++) {
      history.sample(Map.of("p1", i % 2 == 0 ? HostState.RUNNING : HostState.BUSY, "p2", HostState.LOADED), Map.of());
      clock.advance(Duration.ofMinutes(1));
    }
    assertThat(History.render(history.storageSeries("p1", first - 1, first + 5), true)).isEqualTo(".RBRB.");
    assertThat(History.render(history.storageSeries("p2", first - 1, first + 5), true)).isEqualTo(".LLLL.");
    assertThat(log).as("one entry a sample").hasSize(4);
  }
}
