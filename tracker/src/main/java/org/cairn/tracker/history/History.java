package org.cairn.tracker.history;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.availability.HostState;
import org.cairn.core.availability.StateSeries;
import org.cairn.tracker.store.Batch;
import org.cairn.tracker.store.TrackerStore;

/*
 * Tracker-side sampling of availability (FALCON's history server, §5): once per slot (default one
 * minute) the state of every known storage host and compute host is recorded — not one row per
 * heartbeat, so the history's size depends on hosts x time only.
 *
 * Layout: blocks of BLOCK slots per host in the HISTORY column family, key = kind byte ('s' storage,
 * 'c' compute) + host id + 0x00 + block number (8 bytes, big-endian), value = BLOCK state codes
 * (StateSeries.UNKNOWN where not sampled, e.g. while the tracker was down). With one-minute slots a
 * block is a day: 10,000 hosts x 14 days = 140,000 blocks, ~200 MB before RocksDB's compression.
 * Each host's newest block is cached, and the cache is what reads see of it (it is never older than the store). A
 * sample's blocks go in a few writes of up to WRITE_BYTES each (in a group, one log entry each: one per host was 10,000
 * log round trips a minute at 10,000 hosts, docs/simulation.md "Heartbeats"; on a lone tracker each is a synced write,
 * ~7 a minute at 10,000). A block is rewritten whole, so writing every sample costs hosts x 1,440 bytes a slot: 144 MB
 * a minute at 100,000 hosts, through the log and into every member's store. So the blocks are written every slot only
 * while they add up to at most SLOT_BUDGET bytes (~11,000 hosts); a larger grid's every ceil(bytes / SLOT_BUDGET) slots
 * (9 at 100,000 hosts), and a tracker that stops or stops leading before the next write loses the slots since the last
 * (they read as unknown, as while a tracker is down).
 */
public final class History {
  public static final int BLOCK = 1440;
  private static final byte STORAGE = 's';
  private static final byte COMPUTE = 'c';

  private final TrackerStore store;
  private final Clock clock;
  private final long slotMillis;
  private final Duration retention;
  /** Host (kind + id) -> its newest block, as stored. */
  private final Map<String, OpenBlock> open = new ConcurrentHashMap<>();
  /** The most bytes of blocks one write of a sample carries (~1,400 blocks; 100,000 hosts are ~70 writes). */
  static final int WRITE_BYTES = 2 << 20;

  /** The most bytes of blocks written a slot, on average: above it, a sample's blocks are written every few slots. */
  static final long SLOT_BUDGET = 16 << 20;

  private record OpenBlock(long block, byte[] values) {}
  /** Hosts (kind + id) whose open block holds slots not yet written. */
  private final java.util.Set<String> unwritten = new java.util.LinkedHashSet<>();
  /** The slot of the last write of the samples (Long.MIN_VALUE: none yet). */
  private long lastWriteSlot = Long.MIN_VALUE;
  private final long slotBudget;
  /** Counts writes (samples, records, imports, prunes), each counted once it is stored. */
  private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();

  public History(TrackerStore store, Clock clock, Duration slot, Duration retention) {
    this(store, clock, slot, retention, SLOT_BUDGET);
  }

  /** @param slotBudget the most bytes of blocks written a slot on average ({@link #SLOT_BUDGET}; tests use less) */
  History(TrackerStore store, Clock clock, Duration slot, Duration retention, long slotBudget) {
    if (slotBudget < 1) {
      throw new IllegalArgumentException("history's write budget must be positive");
    }
    this.slotBudget = slotBudget;
    if (slot.toMillis() < 100) {
      throw new IllegalArgumentException("history slot must be at least 100ms, was " + slot.toMillis() + "ms");
    }
    if (retention.compareTo(slot) < 0) {
      throw new IllegalArgumentException("history retention must be at least one slot");
    }
    this.store = store;
    this.clock = clock;
    this.slotMillis = slot.toMillis();
    this.retention = retention;
  }

  public long slotMillis() {
    return slotMillis;
  }

  public long currentSlot() {
    return clock.millis() / slotMillis;
  }

  /**
   * A number that changes whenever the stored history may have (a sample, a record, an import, a prune): what reads
   * it derived from the history (placement's CRLS scores) compare to tell whether they are still current.
   */
  public long changes() {
    return changes.get();
  }

  /** Slots in the given duration (at least 1). */
  public long slots(Duration d) {
    return Math.max(1, d.toMillis() / slotMillis);
  }

  /**
   * Records the current slot for every host given, in the cached blocks; writes the blocks sampled since the last write
   * (in writes of up to {@link #WRITE_BYTES}) when they are due: every slot while a sample's blocks are at most
   * {@link #SLOT_BUDGET} bytes, else every ceil(bytes / budget) slots.
   */
  public synchronized void sample(Map<String, HostState> storageHosts, Map<String, Boolean> computeHosts) throws IOException {
    long slot = currentSlot();
    try {
      Writes writes = new Writes();
      long bytes = 0;
      for (Map.Entry<String, HostState> e : storageHosts.entrySet()) {
        bytes += set(writes, STORAGE, e.getKey(), slot, (byte) e.getValue().code());
      }
      for (Map.Entry<String, Boolean> e : computeHosts.entrySet()) {
        bytes += set(writes, COMPUTE, e.getKey(), slot, e.getValue() ? StateSeries.UP : StateSeries.COMPUTE_DOWN);
      }
      long every = Math.max(1, (bytes + slotBudget - 1) / slotBudget);
      if (lastWriteSlot == Long.MIN_VALUE || slot - lastWriteSlot >= every) {
        flush(writes);
        lastWriteSlot = slot;
      }
      writes.flush();
    } finally {
      changes.incrementAndGet(); // after the writes: a reader that saw the old count reads again
    }
  }

  /**
   * Writes every block holding slots not yet written (a tracker that stops calls it; a group's member that no longer
   * leads cannot, and those slots are lost).
   */
  public synchronized void flush() throws IOException {
    Writes writes = new Writes();
    flush(writes);
    writes.flush();
  }

  /** Slots of hosts sampled but not yet written, counted in hosts. */
  public synchronized int unwritten() {
    return unwritten.size();
  }

  private void flush(Writes writes) throws IOException {
    for (String which : unwritten) {
      OpenBlock o = open.get(which);
      writes.add(key((byte) which.charAt(0), which.substring(1), o.block()), o.values());
    }
    unwritten.clear();
  }

  /** Sets a host's slot in its cached block; returns the bytes its block takes when written. */
  private long set(Writes writes, byte kind, String host, long slot, byte code) throws IOException {
    byte[] key = key(kind, host, slot / BLOCK);
    byte[] values = block(kind, host, slot / BLOCK, key, writes);
    values[(int) (slot % BLOCK)] = code;
    unwritten.add((char) kind + host);
    return key.length + values.length;
  }

  /** Blocks written a batch of up to {@link #WRITE_BYTES} at a time. */
  private final class Writes {
    private Batch batch = new Batch();
    private long bytes;

    void add(byte[] key, byte[] values) throws IOException {
      batch.put(TrackerStore.Family.HISTORY, key, values.clone());
      bytes += key.length + values.length;
      if (bytes >= WRITE_BYTES) {
        flush();
      }
    }

    void flush() throws IOException {
      if (batch.size() > 0) {
        store.write(batch);
      }
      batch = new Batch();
      bytes = 0;
    }
  }

  /** Records one host's state at a slot (also used to import history). */
  public synchronized void record(boolean storage, String host, long slot, byte code) throws IOException {
    try {
      byte kind = storage ? STORAGE : COMPUTE;
      byte[] key = key(kind, host, slot / BLOCK);
      Writes writes = new Writes();
      byte[] values = block(kind, host, slot / BLOCK, key, writes);
      values[(int) (slot % BLOCK)] = code;
      writes.add(key, values);
      writes.flush();
      unwritten.remove((char) kind + host);
    } finally {
      changes.incrementAndGet();
    }
  }

  /**
   * The host's block {@code block} (stored at {@code key}), from the cache if it is the one open, else read and opened;
   * the block it replaces in the cache goes to {@code writes} first if it holds slots not yet written.
   */
  private byte[] block(byte kind, String host, long block, byte[] key, Writes writes) throws IOException {
    String which = (char) kind + host;
    OpenBlock o = open.get(which);
    if (o != null && o.block() == block) {
      return o.values();
    }
    if (o != null && unwritten.remove(which)) {
      writes.add(key(kind, host, o.block()), o.values());
    }
    byte[] values = store.get(TrackerStore.Family.HISTORY, key);
    if (values == null || values.length != BLOCK) {
      values = new byte[BLOCK];
      Arrays.fill(values, StateSeries.UNKNOWN);
    }
    open.put(which, new OpenBlock(block, values)); // only one block of each host is open
    return values;
  }

  /** Writes a whole block of BLOCK slots (importing history from elsewhere, and benchmarks). */
  public synchronized void importBlock(boolean storage, String host, long block, byte[] values) throws IOException {
    if (values.length != BLOCK) {
      throw new IllegalArgumentException("a history block has " + BLOCK + " slots, got " + values.length);
    }
    String which = (char) (storage ? STORAGE : COMPUTE) + host;
    OpenBlock o = open.get(which);
    if (o != null && o.block() != block && unwritten.contains(which)) {
      flush(); // the open block's slots not yet written are kept, not dropped with the cache entry
    }
    open.remove(which);
    unwritten.remove(which);
    store.put(TrackerStore.Family.HISTORY, key(storage ? STORAGE : COMPUTE, host, block), values);
    changes.incrementAndGet();
  }

  public StateSeries storageSeries(String host, long fromSlot, long toSlot) throws IOException {
    return series(STORAGE, host, fromSlot, toSlot);
  }

  public StateSeries computeSeries(String host, long fromSlot, long toSlot) throws IOException {
    return series(COMPUTE, host, fromSlot, toSlot);
  }

  private StateSeries series(byte kind, String host, long fromSlot, long toSlot) throws IOException {
    if (toSlot < fromSlot) {
      throw new IllegalArgumentException("window ends before it starts");
    }
    byte[] out = new byte[(int) (toSlot - fromSlot)];
    Arrays.fill(out, StateSeries.UNKNOWN);
    for (long block = fromSlot / BLOCK; block * BLOCK < toSlot; block++) {
      OpenBlock o = open.get((char) kind + host);
      byte[] values = o != null && o.block() == block ? o.values() : store.get(TrackerStore.Family.HISTORY, key(kind, host, block));
      if (values == null) {
        continue;
      }
      long blockStart = block * BLOCK;
      long from = Math.max(fromSlot, blockStart);
      long to = Math.min(toSlot, blockStart + BLOCK);
      System.arraycopy(values, (int) (from - blockStart), out, (int) (from - fromSlot), (int) (to - from));
    }
    return new StateSeries(fromSlot, out);
  }

  /** Deletes blocks that ended before the retention window; returns how many. */
  public synchronized int prune() throws IOException {
    long oldestSlot = currentSlot() - retention.toMillis() / slotMillis;
    Batch batch = new Batch();
    int[] n = {0};
    store.scan(TrackerStore.Family.HISTORY, new byte[0], (key, value) -> {
      long block = ByteBuffer.wrap(key, key.length - 8, 8).getLong();
      if ((block + 1) * BLOCK <= oldestSlot) {
        batch.delete(TrackerStore.Family.HISTORY, key);
        n[0]++;
      }
      return true;
    });
    if (n[0] > 0) {
      store.write(batch);
      changes.incrementAndGet();
    }
    return n[0];
  }

  private static byte[] key(byte kind, String host, long block) {
    byte[] id = host.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(1 + id.length + 1 + 8);
    b.put(kind).put(id).put((byte) 0).putLong(block);
    return b.array();
  }

  /** Renders a series compactly: one letter per slot (R F L B D for storage, U D for compute, '.' unknown). */
  public static String render(StateSeries s, boolean storage) {
    StringBuilder sb = new StringBuilder(s.length());
    for (long slot = s.firstSlot(); slot < s.endSlot(); slot++) {
      byte c = s.at(slot);
      if (c == StateSeries.UNKNOWN) {
        sb.append('.');
      } else if (storage) {
        sb.append("RFLBD".charAt(c));
      } else {
        sb.append(c == StateSeries.UP ? 'U' : 'D');
      }
    }
    return sb.toString();
  }
}
