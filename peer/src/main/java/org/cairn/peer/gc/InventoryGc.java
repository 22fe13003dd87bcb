package org.cairn.peer.gc;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.AssignedPage;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Inventory GC (stdchk §IV.A): lists held fragments to the tracker page by page; it answers which no
 * chunk-index entry assigns to this peer. A fragment is deleted only once it has been garbage for the
 * grace period (a store in flight has not committed its chunks yet), so a commit that lands
 * meanwhile saves it.
 *
 * The other half is the audit: fragments the index says this peer holds but it does not (a lost
 * write-ahead log, a wiped directory) are reported as bad, so repair rebuilds them instead of the
 * grid counting on pieces that are gone. The index names a holder only after its PUT was
 * acknowledged durable, so a key missing here is really missing.
 *
 * One pass at a time, on the caller's thread (the peer's scheduler).
 */
public final class InventoryGc {
  private static final Logger LOG = LoggerFactory.getLogger(InventoryGc.class);
  private static final int PAGE = 10_000;

  private final FragmentStore store;
  private final TrackerClient tracker;
  private final String self;
  private final BadFragmentReports bad;
  private final Clock clock;
  private final Duration grace;
  /** Key -> when the tracker first called it garbage. */
  private final Map<FragmentKey, Long> condemned = new HashMap<>();

  public InventoryGc(FragmentStore store, TrackerClient tracker, String self, BadFragmentReports bad, Clock clock, Duration grace) {
    this.store = store;
    this.tracker = tracker;
    this.self = self;
    this.bad = bad;
    this.clock = clock;
    this.grace = grace;
  }

  /** One pass: deletes what has been garbage for the grace period, then audits. Failures are logged, never thrown. */
  public synchronized void run() {
    try {
      collect();
      audit();
    } catch (IOException e) {
      LOG.warn("garbage collection skipped: {}", e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("garbage collection failed", e);
    }
  }

  private void collect() throws IOException {
    long now = clock.millis();
    Set<FragmentKey> garbageNow = new HashSet<>();
    FragmentKey after = null;
    List<FragmentKey> page;
    while (!(page = store.inventory(after, PAGE)).isEmpty()) {
      List<byte[]> keys = new ArrayList<>(page.size());
      for (FragmentKey k : page) {
        keys.add(k.toBytes());
      }
      for (byte[] g : tracker.garbage(self, keys)) {
        garbageNow.add(FragmentKey.fromBytes(g));
      }
      after = page.get(page.size() - 1);
    }
    condemned.keySet().retainAll(garbageNow);
    List<FragmentKey> delete = new ArrayList<>();
    for (FragmentKey k : garbageNow) {
      long since = condemned.computeIfAbsent(k, x -> now);
      if (now - since >= grace.toMillis()) {
        delete.add(k);
      }
    }
    if (!delete.isEmpty()) {
      long before = store.usedBytes();
      int n = store.delete(delete);
      delete.forEach(condemned::remove);
      LOG.info("garbage collection: deleted {} fragments no version needs ({} bytes)", n, before - store.usedBytes());
    }
  }

  private void audit() throws IOException {
    String after = null;
    int missing = 0;
    do {
      AssignedPage page = tracker.assigned(self, after, PAGE);
      for (String k : page.keys()) {
        FragmentKey key = FragmentKey.fromBytes(HexFormat.of().parseHex(k));
        if (!store.contains(key)) {
          bad.add(key, "not held (audit)");
          missing++;
        }
      }
      after = page.next();
    } while (after != null);
    if (missing > 0) {
      LOG.warn("audit: the tracker counts on {} fragments this peer does not hold; reporting them for repair", missing);
      bad.report();
    }
  }
}
