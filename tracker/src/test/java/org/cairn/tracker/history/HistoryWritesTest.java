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

  @Test
  void aGridWhoseBlocksExceedTheBudgetIsWrittenEveryFewSlots_whileReadsSeeEverySlot() throws IOException {
    History big = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14), 3L * (History.BLOCK + 12)); // three blocks a slot
    Map<String, HostState> hosts = new HashMap<>();
    long first = big.currentSlot();
    List<Integer> entries = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      for (int h = 0; h < 10; h++) { // ten blocks a sample: written every fourth slot
        hosts.put("p" + h, i % 2 == 0 ? HostState.RUNNING : HostState.BUSY);
      }
      big.sample(hosts, Map.of());
      entries.add(log.size());
      clock.advance(Duration.ofMinutes(1));
    }
    assertThat(entries).as("log entries after each sample: the first written, then every fourth slot").containsExactly(1, 1, 1, 1, 2, 2);
    assertThat(History.render(big.storageSeries("p7", first - 1, first + 7), true)).as("what this tracker reads")
        .isEqualTo(".RBRBRB.");
    History next = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14)); // a new leader, or a restart
    assertThat(History.render(next.storageSeries("p7", first - 1, first + 7), true)).as("what another tracker reads from the store")
        .isEqualTo(".RBRBR..");
    assertThat(big.unwritten()).isEqualTo(10);
    big.flush();
    assertThat(big.unwritten()).isZero();
    assertThat(History.render(next.storageSeries("p7", first - 1, first + 7), true)).as("after a flush (a tracker stopping)")
        .isEqualTo(".RBRBRB.");
  }

  @Test
  void aBlockWithSlotsNotYetWrittenIsWrittenWhenTheNextDayOpens() throws IOException {
    History big = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14), 3L * (History.BLOCK + 12));
    clock.advance(Duration.ofMinutes(History.BLOCK - 3 - big.currentSlot() % History.BLOCK)); // three slots before a new block
    long first = big.currentSlot();
    Map<String, HostState> hosts = new HashMap<>();
    for (int h = 0; h < 10; h++) {
      hosts.put("p" + h, HostState.LOADED);
    }
    for (int i = 0; i < 4; i++) { // written at the first; the next day opens at the fourth, before the next scheduled write
      big.sample(hosts, Map.of());
      clock.advance(Duration.ofMinutes(1));
    }
    History next = new History(store, clock, Duration.ofMinutes(1), Duration.ofDays(14));
    assertThat(History.render(next.storageSeries("p3", first - 1, first + 5), true)).as("the day before is whole in the store")
        .isEqualTo(".LLL..");
    assertThat(History.render(big.storageSeries("p3", first - 1, first + 5), true)).isEqualTo(".LLLL.");
  }
}
