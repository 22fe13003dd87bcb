package org.cairn.tracker.history;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.CapacitySeries;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;

/**
 * The grid's donated and used space over time for the status page: per history slot, the totals over
 * the peers that were not DOWN, kept in the store's CAPACITY family by slot (36 bytes a slot: 14 days of
 * one-minute slots is about 730 KB) and pruned with the availability history.
 */
public final class CapacityHistory {
  private final TrackerStore store;
  private final Clock clock;
  private final Duration slot;
  private final Duration retention;

  public CapacityHistory(TrackerStore store, Clock clock, Duration slot, Duration retention) {
    this.store = store;
    this.clock = clock;
    this.slot = slot;
    this.retention = retention;
  }

  /** Records this slot's totals (a group replicates them with heartbeat records). */
  public void sample(List<PeerView> peers) throws IOException {
    long quota = 0;
    long used = 0;
    int live = 0;
    for (PeerView p : peers) {
      if (!"DOWN".equals(p.state())) {
        quota += p.quotaBytes();
        used += p.usedBytes();
        live++;
      }
    }
    long now = clock.millis();
    store.putSoon(TrackerStore.Family.CAPACITY, key(now / slot.toMillis()),
        ByteBuffer.allocate(28).putLong(now).putLong(quota).putLong(used).putInt(live).array());
  }

  /** The samples of the last {@code window}, oldest first. */
  public CapacitySeries series(Duration window) throws IOException {
    long from = (clock.millis() - window.toMillis()) / slot.toMillis();
    List<CapacitySeries.Sample> out = new ArrayList<>();
    store.scanAfter(TrackerStore.Family.CAPACITY, key(from), (k, v) -> {
      ByteBuffer b = ByteBuffer.wrap(v);
      out.add(new CapacitySeries.Sample(b.getLong(), b.getLong(), b.getLong(), b.getInt()));
      return true;
    });
    return new CapacitySeries(slot.toMillis(), out);
  }

  /** Deletes samples older than the retention; returns how many. */
  public int prune() throws IOException {
    long before = (clock.millis() - retention.toMillis()) / slot.toMillis();
    Batch old = new Batch();
    store.scan(TrackerStore.Family.CAPACITY, new byte[0], (k, v) -> {
      if (ByteBuffer.wrap(k).getLong() >= before) {
        return false;
      }
      old.delete(TrackerStore.Family.CAPACITY, k);
      return true;
    });
    if (old.size() > 0) {
      store.write(old);
    }
    return old.size();
  }

  private static byte[] key(long slotIndex) {
    return ByteBuffer.allocate(8).putLong(slotIndex).array();
  }
}
