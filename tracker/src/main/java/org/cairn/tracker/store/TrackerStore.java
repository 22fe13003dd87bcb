package org.cairn.tracker.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The tracker's persistent state in one RocksDB with a column family per concern: its reads, scans and writes (each
 * write to RocksDB directly, to a tracker group's log, or, for records rewritten often, together a second later). The
 * native handles are {@link OpenDb}'s; {@link #close()} is idempotent and writes what waits, then closes them. RocksDB
 * errors become {@link IOException}s naming the operation.
 */
public final class TrackerStore implements Closeable {
  /** The column families. */
  public enum Family {
    PEERS, COMPUTE, HISTORY, BANDWIDTH, VERSIONS, CHUNKS, POLICIES, SETS, SOFT,
    /** A replicated tracker group's own state: the last applied log entry, the leader's address. */
    CLUSTER,
    /** The grid's recent events (the status page's list), by sequence number. */
    EVENTS,
    /** The grid's donated and used space per history slot. */
    CAPACITY,
    /** Which step each store session committed (app, node, session): a repeated commit is answered without a scan. */
    SESSIONS;

    byte[] nameBytes() { // the column family's name
      return name().toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    }
  }

  static {
    org.cairn.core.util.RocksDbLibrary.load(); // from the user's cache, unpacked there once
  }

  private final WriteOptions writeOptions;
  /**
   * A lone tracker's batches (a version committed or deleted, a set's parts, a catalog record attached, a folder
   * policy set) are on disk before {@link #write} returns: RocksDB syncs its WAL for them, so a commit the tracker
   * answered survives the tracker's host losing power, not only its process dying. Single puts and deletes
   * (heartbeats, repair's new holders, bandwidth samples: rewritten or redone if lost) are not synced. A group member's durability is the
   * group's log (Ratis syncs it on a majority), so what it applies from the log is not synced again.
   */
  private final WriteOptions syncedWrites;
  /** The open database (a group member's restored snapshot swaps it). */
  private final OpenDb db;
  private boolean closed;
  /** Null for a lone tracker (writes go to RocksDB); in a group, every write goes through the replicated log. */
  private volatile Replicator replicator;
  /** Puts that may wait to be written together (heartbeat records), newest value per key. */
  private final WaitingPuts soon = new WaitingPuts();
  private final Scans scans;
  /**
   * A lone tracker's flush of waiting puts (the write side) excludes its direct writes (the read side, concurrent among
   * themselves so RocksDB still groups concurrent commits' syncs): a put drained before a newer direct write of its key
   * must not land after it.
   */
  private final java.util.concurrent.locks.ReentrantReadWriteLock localOrder = new java.util.concurrent.locks.ReentrantReadWriteLock();
  /** Writes applied to this member's database per family, since it opened ({@link #writes}). */
  private final java.util.concurrent.atomic.AtomicLongArray writes = new java.util.concurrent.atomic.AtomicLongArray(Family.values().length);

  /**
   * How a tracker group's writes are made: {@link #replicate} hands an encoded {@link Batch} to the
   * group's log and returns once this member has applied it through {@link #applyReplicated}
   * (throws if it could not be committed, e.g. this member is no longer the leader).
   */
  public interface Replicator {
    void replicate(byte[] encodedBatch) throws IOException;
  }

  private TrackerStore(Path dir, org.rocksdb.Statistics statistics) throws IOException {
    this.db = OpenDb.open(dir, statistics);
    this.scans = new Scans(db);
    writeOptions = new WriteOptions();
    syncedWrites = new WriteOptions().setSync(true);
  }

  private Handles use() throws IOException {
    return db.use();
  }

  private void done() {
    db.done();
  }

  /**
   * Replaces the whole database with the RocksDB checkpoint in {@code checkpoint} (a tracker group's
   * snapshot, installed on a member that was too far behind for the log): closes it, moves the old
   * files aside, links or copies the checkpoint's files in, opens it again. Every call waits meanwhile.
   */
  public void restoreFrom(Path checkpoint) throws IOException {
    db.restoreFrom(checkpoint);
    for (Family f : Family.values()) {
      writes.incrementAndGet(f.ordinal()); // every family may have changed
    }
  }

  public static TrackerStore open(Path dir) throws IOException {
    return new TrackerStore(dir, null);
  }

  /** As {@link #open(Path)}, with RocksDB counting into {@code statistics} (tests). */
  static TrackerStore open(Path dir, org.rocksdb.Statistics statistics) throws IOException {
    return new TrackerStore(dir, statistics);
  }

  /** Makes every later write go through {@code r} (a tracker group's log). */
  public void replicateThrough(Replicator r) {
    this.replicator = r;
  }

  public void put(Family f, byte[] key, byte[] value) throws IOException {
    Batch batch = new Batch().put(f, key, value);
    if (replicator != null) {
      write(batch);
    } else {
      writeDirect(batch, writeOptions);
    }
  }

  /**
   * A put that may be written up to a second later, together with others ({@link #flushSoon}): for records rewritten
   * often whose latest value is all that matters (heartbeats, events). Reads and scans see it at once. It never waits
   * for the disk: a heartbeat is answered while a commit's synced write waits on a slow disk (RocksDB's writes queue
   * behind a sync), so the tracker does not mark live peers DOWN for its own disk's stall.
   */
  public void putSoon(Family f, byte[] key, byte[] value) {
    soon.put(f, key, value);
  }

  /** Forgets the waiting {@link #putSoon} puts (a group member that stopped leading). */
  public void dropSoon() {
    soon.clear();
  }

  /** Writes the waiting {@link #putSoon} puts as one batch (in a group: replicates it); returns how many. */
  public int flushSoon() throws IOException {
    Replicator r = replicator;
    if (r != null) {
      Batch batch = soon.drain();
      if (batch.size() > 0) {
        r.replicate(batch.encode());
      }
      return batch.size();
    }
    localOrder.writeLock().lock();
    try {
      Batch batch = soon.drain();
      if (batch.size() > 0) {
        writeLocal(batch, writeOptions); // rewritten or redone if lost, as a single put: not synced
      }
      return batch.size();
    } finally {
      localOrder.writeLock().unlock();
    }
  }

  public byte[] get(Family f, byte[] key) throws IOException {
    byte[] waiting = soon.get(f, key);
    if (waiting != null) {
      return waiting;
    }
    Handles h = use();
    try {
      return h.db().get(h.of(f), key);
    } catch (RocksDBException e) {
      throw new IOException("reading " + f + " failed: " + e.getMessage(), e);
    } finally {
      done();
    }
  }

  /**
   * The values of {@code keys} in family {@code f} (null where there is none), in their order: as many {@link #get}s, in
   * one RocksDB {@code MultiGet}, which looks up a batch of keys together (RocksDB wiki, "MultiGet Performance") instead
   * of crossing into it once per key. A commit reads every chunk of its version this way.
   */
  public java.util.List<byte[]> getAll(Family f, java.util.List<byte[]> keys) throws IOException {
    byte[][] out = new byte[keys.size()][];
    java.util.List<byte[]> asked = new java.util.ArrayList<>(keys.size());
    int[] at = new int[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      out[i] = soon.get(f, keys.get(i));
      if (out[i] == null) {
        at[asked.size()] = i;
        asked.add(keys.get(i));
      }
    }
    if (!asked.isEmpty()) {
      Handles h = use();
      try {
        java.util.List<byte[]> values = h.db().multiGetAsList(java.util.Collections.nCopies(asked.size(), h.of(f)), asked);
        for (int j = 0; j < values.size(); j++) {
          out[at[j]] = values.get(j);
        }
      } catch (RocksDBException e) {
        throw new IOException("reading " + asked.size() + " keys of " + f + " failed: " + e.getMessage(), e);
      } finally {
        done();
      }
    }
    return java.util.Arrays.asList(out);
  }

  public void delete(Family f, byte[] key) throws IOException {
    Batch batch = new Batch().delete(f, key);
    if (replicator != null) {
      write(batch);
    } else {
      writeDirect(batch, writeOptions);
    }
  }

  /**
   * Applies puts and deletes atomically and durably: on a lone tracker synced to disk before it returns, in a group
   * once the group's log has committed them.
   */
  public void write(Batch batch) throws IOException {
    Replicator r = replicator;
    if (r != null) {
      soon.supersede(batch); // this write is newer
      r.replicate(batch.encode());
      return;
    }
    writeDirect(batch, syncedWrites);
  }

  /** A lone tracker's direct write: newer than any waiting put of its keys, so those are dropped. */
  private void writeDirect(Batch batch, WriteOptions options) throws IOException {
    localOrder.readLock().lock();
    try {
      soon.supersede(batch);
      writeLocal(batch, options);
    } finally {
      localOrder.readLock().unlock();
    }
  }

  /**
   * Applies a batch a tracker group's log committed ({@link Batch#encode}) to this member's database,
   * with {@code applied} (the log position, 16 bytes) in the same atomic write.
   */
  public void applyReplicated(byte[] encoded, byte[] applied) throws IOException {
    Batch batch = Batch.decode(encoded);
    batch.put(Family.CLUSTER, APPLIED, applied);
    writeLocal(batch, writeOptions);
  }

  /**
   * How many writes this member's database has applied to {@code f} since it opened (a restored
   * snapshot counts as one): equal counts mean the family has not changed in between.
   */
  public long writes(Family f) {
    return writes.get(f.ordinal());
  }

  /** The key under which {@link #applyReplicated} records the last log position applied. */
  public static final byte[] APPLIED = "applied".getBytes(StandardCharsets.UTF_8);

  private void writeLocal(Batch batch, WriteOptions options) throws IOException {
    Handles h = use();
    try (WriteBatch wb = new WriteBatch()) {
      for (Batch.Op op : batch.ops) {
        if (op.value() == null) {
          wb.delete(h.of(op.family()), op.key());
        } else {
          wb.put(h.of(op.family()), op.key(), op.value());
        }
      }
      h.db().write(options, wb);
      for (Batch.Op op : batch.ops) {
        writes.incrementAndGet(op.family().ordinal());
      }
    } catch (RocksDBException e) {
      throw new IOException("writing a batch of " + batch.ops.size() + " changes failed: " + e.getMessage(), e);
    } finally {
      done();
    }
  }

  /**
   * A consistent point-in-time copy of the whole database in {@code target} (must not exist): a
   * RocksDB checkpoint, hard-linking the immutable table files where it can. Writes go on meanwhile.
   */
  public void checkpoint(Path target) throws IOException {
    db.checkpoint(target);
  }

  /** How many entries each family holds (a full scan of each). */
  public long[] count(Family... fs) throws IOException {
    long[] out = new long[fs.length];
    for (int i = 0; i < fs.length; i++) {
      long[] n = {0};
      scan(fs[i], new byte[0], (k, v) -> {
        n[0]++;
        return true;
      });
      out[i] = n[0];
    }
    return out;
  }

  /** Visits every entry whose key starts with {@code prefix} (empty: all), in key order. */
  public void scan(Family f, byte[] prefix, EntryVisitor visitor) throws IOException {
    flushBeforeScan(f);
    scans.scan(f, prefix, visitor);
  }

  /**
   * The greatest key that starts with {@code prefix} and is at most {@code prefix.length + tail} bytes
   * long, or null: one seek, no values read (a node's latest step without reading its versions).
   */
  public byte[] lastKey(Family f, byte[] prefix, int tail) throws IOException {
    flushBeforeScan(f);
    return scans.lastKey(f, prefix, tail);
  }

  /** Visits entries with keys strictly after {@code after} (empty: from the first), in key order. */
  public void scanAfter(Family f, byte[] after, EntryVisitor visitor) throws IOException {
    flushBeforeScan(f);
    scans.scanAfter(f, after, visitor);
  }

  /** A scan of a family with puts waiting on a lone tracker writes them first, so it sees them (a group's wait for its leader). */
  private void flushBeforeScan(Family f) throws IOException {
    if (replicator == null && soon.holds(f)) {
      flushSoon();
    }
  }

  /** Receives entries of a scan; return false to stop. */
  @FunctionalInterface
  public interface EntryVisitor {
    boolean visit(byte[] key, byte[] value) throws IOException;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    if (replicator == null) {
      try {
        flushSoon(); // a lone tracker stopping writes its waiting heartbeat records
      } catch (IOException | RuntimeException e) {
        org.slf4j.LoggerFactory.getLogger(TrackerStore.class).warn("waiting heartbeat records not written at close: {}", e.toString());
      }
    }
    closed = true;
    db.close();
    writeOptions.close();
    syncedWrites.close();
  }

}
