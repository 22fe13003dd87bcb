package org.cairn.peer.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.core.CorruptDataException;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.protocol.FragmentKey;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/*
 * Fragments on the donor's disk. Their bytes (the serialised fragment, header + payload) go once to
 * append-only segment files (SegmentLog); RocksDB keeps the index: FragmentKey (chunk id + index +
 * tag, the header's CRC: two apps' differently made pieces of one chunk are two entries, never one
 * replacing the other) -> location (segment, offset, length). A PUT appends its batch and syncs the
 * segment (one fdatasync shared by concurrent batches), then writes the batch's index entries with a
 * synced WAL write of a few bytes each, so it is durable before it is acknowledged and each byte is
 * written once. (Format 2 kept the values in RocksDB's blob files, which wrote every byte twice: WAL,
 * then blob file at flush; it is converted on open.)
 *
 * Every fragment is verified (Fragment.parse: header and payload CRC32C) before it is written and
 * after it is read; a fragment that fails on read is deleted and reported as missing, so it is never
 * served. One instance owns every native handle; close() is idempotent and closes handles, DB, options.
 *
 * Space: a deleted or replaced fragment's bytes stay in their segment as dead space. When a segment
 * that is no longer written is less than half live, a background thread copies its live fragments to
 * the active segment (claiming their keys like a PUT) and deletes the file. Live bytes per segment
 * are counted from the index on open.
 *
 * A full disk: a segment append that fails (ENOSPC) is cut back and the store says it is out of
 * space (the peer refuses new pieces and reports no free bytes; reads go on). A RocksDB write that
 * fails the same way puts RocksDB into read-only mode (its background error). checkWritable(),
 * called on the peer's heartbeat tick, writes a 1 MiB probe file and a small synced RocksDB write;
 * a failed WAL write stays until the DB is reopened, so once the probe file fits the DB is closed
 * and reopened (readers wait on a lock for that moment).
 */
public final class FragmentStore implements Closeable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FragmentStore.class);
  static {
    RocksDB.loadLibrary();
    // RocksJava unpacked its native library into the temporary directory; a killed process would leave it there
    org.cairn.core.util.TempLibraries.unlinkLoaded("librocksdbjni");
    org.cairn.core.util.TempLibraries.sweepStale("librocksdbjni", java.time.Duration.ofMinutes(10));
  }

  /** Segment files of 64 MiB: compaction copies at most half of one at a time. */
  static final long SEGMENT_BYTES = 64L << 20;

  private final DBOptions dbOptions;
  private final ColumnFamilyOptions blobOptions;
  private final ColumnFamilyOptions plainOptions;
  private final WriteOptions syncWrites;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private RocksDB db;
  /** key -> SegmentLog.Location */
  private ColumnFamilyHandle locations;
  private final Path dir;
  private List<ColumnFamilyDescriptor> descriptors;
  private final SegmentLog log;
  /** Live (indexed) bytes per segment id. */
  private final java.util.concurrent.ConcurrentHashMap<Integer, AtomicLong> live = new java.util.concurrent.ConcurrentHashMap<>();
  /** Compacts sparse segments, one at a time. */
  private final java.util.concurrent.ExecutorService compactor;
  private final java.util.Set<Integer> compactions = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final AtomicLong compactedSegments = new AtomicLong();
  /** Readers hold it shared; reopening the DB after a full disk holds it exclusively. */
  private final java.util.concurrent.locks.ReentrantReadWriteLock reopenLock = new java.util.concurrent.locks.ReentrantReadWriteLock();
  private final AtomicLong usedBytes = new AtomicLong();
  private final AtomicLong count = new AtomicLong();
  /** Bytes written and read since open (the load monitor's fallback measure). */
  private final AtomicLong ioBytes = new AtomicLong();
  /** PUTs that wrote since this store opened (each one segment append + sync and one synced index write), and what they wrote. */
  private final AtomicLong durableWrites = new AtomicLong();
  private final AtomicLong fragmentsWritten = new AtomicLong();
  private final AtomicLong bytesWritten = new AtomicLong();
  /** Forgotten after 10 minutes without enough writes to renew it (WriteRate). */
  private final WriteRate writeRate = new WriteRate(10 * 60_000L);
  private volatile java.util.function.Consumer<FragmentKey> corruptionListener = k -> { };
  private final org.rocksdb.SstFileManager sstFiles;
  /** Why writes fail for lack of space (null while they do not). */
  private volatile String outOfSpace;
  /** Set when a reopen failed: the DB handle is closed and must not be touched. */
  private volatile String unusable;
  private volatile boolean closed;
  /** Set when close() begins (before closed), so a compaction it interrupts is not reported as a failure. */
  private volatile boolean closing;

  private FragmentStore(Path dir, long segmentBytes) throws IOException {
    this.dir = dir;
    try {
      sstFiles = new org.rocksdb.SstFileManager(org.rocksdb.Env.getDefault());
    } catch (RocksDBException e) {
      throw new IOException("creating RocksDB's file manager failed: " + e.getMessage(), e);
    }
    // with an SstFileManager RocksDB recovers from an out-of-space background error when space returns
    dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true).setSstFileManager(sstFiles);
    // only for opening a format-2 store's value column family, to convert it
    blobOptions = new ColumnFamilyOptions()
        .setEnableBlobFiles(true)
        .setMinBlobSize(4096)
        .setBlobFileSize(256L << 20)
        .setBlobCompressionType(CompressionType.NO_COMPRESSION)
        .setEnableBlobGarbageCollection(true);
    plainOptions = new ColumnFamilyOptions();
    syncWrites = new WriteOptions().setSync(true);
    compactor = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "segment-compactor");
      t.setDaemon(true);
      return t;
    });
    List<String> existing = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      if (Files.exists(dir.resolve("CURRENT"))) {
        try (org.rocksdb.Options listing = new org.rocksdb.Options()) {
          for (byte[] name : RocksDB.listColumnFamilies(listing, dir.toString())) {
            existing.add(new String(name, StandardCharsets.UTF_8));
          }
        }
      }
      List<ColumnFamilyDescriptor> ds = new ArrayList<>();
      ds.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plainOptions));
      ds.add(new ColumnFamilyDescriptor(LOCATIONS, plainOptions));
      for (String old : List.of("fragments", "sizes")) {
        if (existing.contains(old)) {
          ds.add(new ColumnFamilyDescriptor(old.getBytes(StandardCharsets.UTF_8), old.equals("fragments") ? blobOptions : plainOptions));
        }
      }
      descriptors = ds;
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      compactor.shutdownNow();
      closeOptions();
      throw new IOException("opening the fragment store in " + dir + " failed: " + e.getMessage(), e);
    }
    locations = handles.get(1);
    SegmentLog opened = null;
    try {
      opened = SegmentLog.open(dir.resolve("segments"), segmentBytes);
      this.log = opened;
      checkFormat();
    } catch (IOException | RuntimeException e) {
      if (opened == null) {
        this.closed = true;
        compactor.shutdownNow();
        closeDb();
        throw e;
      }
      close();
      throw e;
    }
    try (RocksIterator it = db.newIterator(locations)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        SegmentLog.Location loc = SegmentLog.Location.decode(it.value());
        usedBytes.addAndGet(loc.length());
        count.incrementAndGet();
        live.computeIfAbsent(loc.segment(), x -> new AtomicLong()).addAndGet(loc.length());
      }
    }
    // segments nothing points into (crashed or failed writes, an interrupted compaction) go now;
    // sparse ones are compacted in the background
    for (java.util.Map.Entry<Integer, Long> e : log.sizes().entrySet()) {
      if (e.getKey() != log.activeId()) {
        long l = liveBytes(e.getKey());
        if (l == 0) {
          log.delete(e.getKey());
        } else {
          maybeCompact(e.getKey());
        }
      }
    }
  }

  private static final byte[] LOCATIONS = "locations".getBytes(StandardCharsets.UTF_8);

  private long liveBytes(int segment) {
    AtomicLong l = live.get(segment);
    return l == null ? 0 : l.get();
  }

  /**
   * The store's format: 3 since fragment bytes live in segment files; 2 kept them in RocksDB blob
   * files (converted on open); 1 (unmarked) had 33-byte keys without the tag (refused).
   */
  static final int FORMAT = 3;
  private static final byte[] FORMAT_KEY = "format".getBytes(StandardCharsets.UTF_8);

  private void checkFormat() throws IOException {
    try {
      byte[] v = db.get(handles.get(0), FORMAT_KEY);
      String format = v == null ? null : new String(v, StandardCharsets.UTF_8);
      if (format == null) {
        for (ColumnFamilyHandle h : handles.subList(1, handles.size())) {
          try (RocksIterator it = db.newIterator(h)) {
            it.seekToFirst();
            if (it.isValid()) {
              throw new IOException("the fragment store in " + dir + " is from an older Cairn (" + it.key().length
                  + "-byte keys, format 1); this build reads format " + FORMAT + ". Move the directory away and let repair refill the peer");
            }
          }
        }
      } else if (format.equals("2")) {
        convertFormat2();
      } else if (!format.equals(Integer.toString(FORMAT))) {
        throw new IOException("the fragment store in " + dir + " has format " + format + "; this build reads format " + FORMAT);
      }
      db.put(handles.get(0), syncWrites, FORMAT_KEY, Integer.toString(FORMAT).getBytes(StandardCharsets.UTF_8));
    } catch (RocksDBException e) {
      throw new IOException("reading the fragment store's format in " + dir + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Format 2 -> 3: copies every fragment from the blob column family into segments and indexes it,
   * then drops the old column families. Interrupted, it runs again on the next open (the marker
   * still says 2); bytes copied twice are dead space that compaction reclaims.
   */
  private void convertFormat2() throws IOException, RocksDBException {
    ColumnFamilyHandle old = null;
    for (int i = 2; i < descriptors.size(); i++) {
      if (new String(descriptors.get(i).getName(), StandardCharsets.UTF_8).equals("fragments")) {
        old = handles.get(i);
      }
    }
    long moved = 0;
    if (old != null) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      long batchBytes = 0;
      try (RocksIterator it = db.newIterator(old)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          keys.add(it.key());
          values.add(it.value());
          batchBytes += values.get(values.size() - 1).length;
          if (batchBytes >= 16 << 20) {
            moved += indexCopies(keys, values);
            keys.clear();
            values.clear();
            batchBytes = 0;
          }
        }
      }
      moved += indexCopies(keys, values);
    }
    for (int i = handles.size() - 1; i >= 2; i--) {
      db.dropColumnFamily(handles.get(i));
      handles.remove(i).close();
    }
    descriptors = descriptors.subList(0, 2);
    org.slf4j.LoggerFactory.getLogger(FragmentStore.class).info("fragment store in {} converted to format {}: {} fragments "
        + "moved from RocksDB blob files to segment files", dir, FORMAT, moved);
  }

  private int indexCopies(List<byte[]> keys, List<byte[]> values) throws IOException, RocksDBException {
    if (keys.isEmpty()) {
      return 0;
    }
    List<SegmentLog.Location> locs = log.append(values);
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < keys.size(); i++) {
        batch.put(locations, keys.get(i), locs.get(i).encode());
      }
      db.write(syncWrites, batch);
    }
    return keys.size();
  }

  /** Segments compacted since open (for tests and logs). */
  long compactedSegments() {
    return compactedSegments.get();
  }

  /** Segment file ids and sizes (for tests). */
  java.util.Map<Integer, Long> segmentSizes() {
    return log.sizes();
  }

  public static FragmentStore open(Path dir) throws IOException {
    return new FragmentStore(dir, SEGMENT_BYTES);
  }

  /** With a given segment size (tests use small ones to exercise compaction). */
  static FragmentStore open(Path dir, long segmentBytes) throws IOException {
    return new FragmentStore(dir, segmentBytes);
  }

  /** Bytes of stored fragments (headers included). */
  public long usedBytes() {
    return usedBytes.get();
  }

  /**
   * Bytes the store's segment files take on the disk: the live fragments plus dead space that
   * compaction has not reclaimed yet. The peer's quota counts these, so dead space cannot take the
   * disk beyond what the owner donated.
   */
  public long diskBytes() {
    return log.totalBytes();
  }

  /**
   * Compacts sealed segments, the ones with the most dead space first, until the dead space is at
   * most {@code maxDeadBytes} or only the active segment is left. The peer calls it when dead space
   * eats into its quota; segments less than half live are compacted anyway as fragments die.
   * Returns the number of segments compacted.
   */
  public int compactDeadSpace(long maxDeadBytes) throws IOException {
    int done = 0;
    java.util.Set<Integer> tried = new java.util.HashSet<>();
    while (!closing && diskBytes() - usedBytes() > maxDeadBytes) {
      int active = log.activeId();
      int worst = -1;
      long worstDead = 0;
      for (int id : log.ids()) {
        long size = log.size(id);
        long dead = size - liveBytes(id);
        if (id != active && size > 0 && dead > worstDead && !tried.contains(id) && !compactions.contains(id)) {
          worst = id;
          worstDead = dead;
        }
      }
      if (worst < 0) {
        break;
      }
      tried.add(worst);
      if (!compactions.add(worst)) {
        continue; // the background compactor took it meanwhile
      }
      try {
        compact(worst);
      } finally {
        compactions.remove(worst);
      }
      done++;
    }
    return done;
  }

  private final java.util.concurrent.atomic.AtomicBoolean deadSpaceQueued = new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * {@link #compactDeadSpace} on the compaction thread, unless one is already queued or running.
   * Returns whether it was queued.
   */
  public boolean requestDeadSpaceCompaction(long maxDeadBytes) {
    if (closing || diskBytes() - usedBytes() <= maxDeadBytes || !deadSpaceQueued.compareAndSet(false, true)) {
      return false;
    }
    try {
      compactor.execute(() -> {
        try {
          int n = compactDeadSpace(maxDeadBytes);
          if (n > 0) {
            org.slf4j.LoggerFactory.getLogger(FragmentStore.class).info("compacted {} segments to reclaim dead space: {} bytes on "
                + "disk for {} live", n, diskBytes(), usedBytes());
          }
        } catch (IOException | RuntimeException e) {
          if (!closing) {
            org.slf4j.LoggerFactory.getLogger(FragmentStore.class).warn("compacting dead space failed (retried later): {}", e.toString());
          }
        } finally {
          deadSpaceQueued.set(false);
        }
      });
      return true;
    } catch (java.util.concurrent.RejectedExecutionException e) {
      deadSpaceQueued.set(false);
      return false;
    }
  }

  public long fragmentCount() {
    return count.get();
  }

  /**
   * The rate at which this disk takes fragment writes, bytes per second (see {@link WriteRate}); 0 when
   * unknown. Call once per heartbeat: it folds the writes since the last call into the rate.
   */
  public double sampleWriteRate() {
    return writeRate.sample(System.nanoTime(), System.currentTimeMillis());
  }

  /** Fragment bytes written and read since the store was opened. */
  public long ioBytes() {
    return ioBytes.get();
  }

  /**
   * Verifies every fragment, then stores all of them durably in one batch (nothing is stored if any
   * fails verification). Returns the bytes newly added (fragments already held are not counted twice).
   *
   * <p>Batches from different connections run concurrently, so RocksDB commits their synced writes
   * as a group (one WAL fsync for several). Two batches that share a key take turns ({@link #claim}),
   * so the usage accounting, which reads each key's old size, stays exact.
   */
  public long putAll(List<byte[]> serialized) throws IOException {
    java.util.Map<FragmentKey, byte[]> byKey = new java.util.LinkedHashMap<>(); // a key twice in one batch: once
    for (byte[] bytes : serialized) {
      Fragment.Header h = Fragment.verify(bytes, 0, bytes.length); // throws CorruptDataException naming what is wrong
      byKey.put(new FragmentKey(h.chunkId, h.index, Fragment.tagOf(bytes, 0)), bytes);
    }
    List<FragmentKey> keys = new ArrayList<>(byKey.keySet());
    java.util.concurrent.CompletableFuture<Void> mine = claim(keys);
    long added = 0;
    long addedCount = 0;
    java.util.Set<Integer> touched = new java.util.HashSet<>();
    reopenLock.readLock().lock();
    try (WriteBatch batch = new WriteBatch()) {
      requireUsable();
      // fragments already here with the same bytes (same key = same header, so same length) are not written again
      List<FragmentKey> fresh = new ArrayList<>(keys.size());
      List<byte[]> values = new ArrayList<>(keys.size());
      List<SegmentLog.Location> replaced = new ArrayList<>();
      for (FragmentKey k : keys) {
        byte[] old = db.get(locations, k.toBytes());
        if (old != null) {
          SegmentLog.Location o = SegmentLog.Location.decode(old);
          if (o.length() == byKey.get(k).length) {
            continue;
          }
          if (intact(k, o)) {
            // same key, other bytes: a forged header (CRC32C is no signature); the piece held stays
            LOG.warn("kept fragment {}: a PUT brought other bytes under its key ({} bytes, held {})", k, byKey.get(k).length, o.length());
            continue;
          }
          replaced.add(o);
        }
        fresh.add(k);
        values.add(byKey.get(k));
      }
      if (!fresh.isEmpty()) {
        List<SegmentLog.Location> locs;
        long writing = values.stream().mapToLong(v -> v.length).sum();
        writeRate.begin(System.nanoTime());
        boolean durable = false;
        try {
          try {
            locs = log.append(values);
          } catch (IOException e) {
            noteFailure(e);
            throw e;
          }
          for (int i = 0; i < fresh.size(); i++) {
            batch.put(locations, fresh.get(i).toBytes(), locs.get(i).encode());
          }
          db.write(syncWrites, batch);
          durable = true;
        } finally {
          writeRate.end(System.nanoTime(), durable ? writing : 0);
        }
        for (SegmentLog.Location l : locs) {
          live.computeIfAbsent(l.segment(), x -> new AtomicLong()).addAndGet(l.length());
          added += l.length();
        }
        addedCount = fresh.size() - replaced.size();
        for (SegmentLog.Location o : replaced) {
          live.computeIfAbsent(o.segment(), x -> new AtomicLong()).addAndGet(-o.length());
          added -= o.length();
          touched.add(o.segment());
        }
        usedBytes.addAndGet(added);
        count.addAndGet(addedCount);
        ioBytes.addAndGet(writing);
        durableWrites.incrementAndGet();
        fragmentsWritten.addAndGet(fresh.size());
        bytesWritten.addAndGet(writing);
      }
    } catch (RocksDBException e) {
      noteFailure(e);
      throw new IOException("storing " + serialized.size() + " fragments failed: " + e.getMessage(), e);
    } finally {
      reopenLock.readLock().unlock();
      release(keys, mine);
    }
    touched.forEach(this::maybeCompact);
    return added;
  }

  /** Keys some write or delete is working on, each with the future that completes when it is done. */
  private final java.util.concurrent.ConcurrentHashMap<FragmentKey, java.util.concurrent.CompletableFuture<Void>> busyKeys =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Claims every key for this call, waiting (without holding any) while another call has one of them. */
  private java.util.concurrent.CompletableFuture<Void> claim(List<FragmentKey> keys) throws IOException {
    java.util.concurrent.CompletableFuture<Void> mine = new java.util.concurrent.CompletableFuture<>();
    while (true) {
      java.util.concurrent.CompletableFuture<Void> other = null;
      List<FragmentKey> claimed = new ArrayList<>(keys.size());
      for (FragmentKey k : keys) {
        java.util.concurrent.CompletableFuture<Void> prev = busyKeys.putIfAbsent(k, mine);
        if (prev != null) {
          other = prev;
          break;
        }
        claimed.add(k);
      }
      if (other == null) {
        return mine;
      }
      for (FragmentKey k : claimed) {
        busyKeys.remove(k, mine);
      }
      try {
        other.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for another write of the same fragment");
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e); // claims complete normally
      }
    }
  }

  private void release(List<FragmentKey> keys, java.util.concurrent.CompletableFuture<Void> mine) {
    for (FragmentKey k : keys) {
      busyKeys.remove(k, mine);
    }
    mine.complete(null);
  }

  /**
   * The verified bytes of a fragment, or null if it is not here. A fragment that fails verification
   * is deleted and reported through {@link CorruptDataException}.
   */
  public byte[] get(FragmentKey key) throws IOException {
    byte[] value = null;
    RocksDBException failure = null;
    reopenLock.readLock().lock();
    try {
      requireUsable();
      for (int attempt = 0; ; attempt++) {
        byte[] loc = db.get(locations, key.toBytes());
        if (loc == null) {
          return null;
        }
        try {
          value = log.read(SegmentLog.Location.decode(loc));
          break;
        } catch (SegmentLog.SegmentGoneException e) {
          if (attempt >= 3) {
            throw e; // compaction moved it again and again: give up rather than spin
          }
          // compaction moved it between the lookup and the read: look it up again
        }
      }
    } catch (RocksDBException e) {
      failure = e;
    } finally {
      reopenLock.readLock().unlock();
    }
    if (failure != null) {
      throw new IOException("reading fragment " + key + " failed: " + failure.getMessage(), failure);
    }
    ioBytes.addAndGet(value.length);
    try {
      Fragment f = Fragment.parse(value);
      if (!f.chunkId().equals(key.chunkId()) || f.index() != key.index() || Fragment.tagOf(value, 0) != key.tag()) {
        throw new CorruptDataException("stored under " + key + " but is fragment " + f.index() + " of " + f.chunkId().shortHex()
            + " with tag " + FragmentKey.tagHex(Fragment.tagOf(value, 0)));
      }
    } catch (CorruptDataException e) {
      delete(List.of(key));
      corruptionListener.accept(key);
      throw new CorruptDataException("fragment " + key + " was corrupt on disk and has been dropped: " + e.getMessage(), e);
    }
    return value;
  }

  /** Whether the piece at {@code at} reads back whole and is the fragment {@code key} names. */
  private boolean intact(FragmentKey key, SegmentLog.Location at) {
    try {
      byte[] held = log.read(at);
      Fragment f = Fragment.parse(held);
      return f.chunkId().equals(key.chunkId()) && f.index() == key.index() && Fragment.tagOf(held, 0) == key.tag();
    } catch (SegmentLog.SegmentGoneException e) {
      return true; // compaction is moving it: it is whole, and stays
    } catch (IOException e) {
      return false; // unreadable or corrupt: the new bytes may replace it
    }
  }

  /** Called (on the reading thread) with each fragment found corrupt and dropped, so it can be reported. */
  public void onCorruption(java.util.function.Consumer<FragmentKey> listener) {
    this.corruptionListener = java.util.Objects.requireNonNull(listener);
  }

  public boolean contains(FragmentKey key) throws IOException {
    reopenLock.readLock().lock();
    try {
      requireUsable();
      return db.get(locations, key.toBytes()) != null;
    } catch (RocksDBException e) {
      throw new IOException("looking up " + key + " failed: " + e.getMessage(), e);
    } finally {
      reopenLock.readLock().unlock();
    }
  }

  /** Deletes the keys held; returns how many were. */
  public int delete(List<FragmentKey> keys) throws IOException {
    List<FragmentKey> unique = new ArrayList<>(new java.util.LinkedHashSet<>(keys));
    java.util.concurrent.CompletableFuture<Void> mine = claim(unique);
    int deleted = 0;
    long freed = 0;
    List<SegmentLog.Location> gone = new ArrayList<>();
    reopenLock.readLock().lock();
    try (WriteBatch batch = new WriteBatch()) {
      requireUsable();
      for (FragmentKey k : unique) {
        byte[] key = k.toBytes();
        byte[] loc = db.get(locations, key);
        if (loc != null) {
          batch.delete(locations, key);
          SegmentLog.Location l = SegmentLog.Location.decode(loc);
          gone.add(l);
          freed += l.length();
          deleted++;
        }
      }
      if (deleted > 0) {
        db.write(syncWrites, batch);
      }
      usedBytes.addAndGet(-freed);
      count.addAndGet(-deleted);
      for (SegmentLog.Location l : gone) {
        live.computeIfAbsent(l.segment(), x -> new AtomicLong()).addAndGet(-l.length());
      }
    } catch (RocksDBException e) {
      noteFailure(e);
      throw new IOException("deleting " + keys.size() + " fragments failed: " + e.getMessage(), e);
    } finally {
      reopenLock.readLock().unlock();
      release(unique, mine);
    }
    gone.stream().map(SegmentLog.Location::segment).distinct().forEach(this::maybeCompact);
    return deleted;
  }

  /** Queues a segment that is no longer written for compaction once less than half of it is live. */
  private void maybeCompact(int segment) {
    if (closing || segment == log.activeId()) {
      return;
    }
    long size = log.size(segment);
    if (size < 0 || liveBytes(segment) * 2 >= size || !compactions.add(segment)) {
      return;
    }
    try {
      compactor.execute(() -> {
        try {
          compact(segment);
        } catch (IOException | RuntimeException e) {
          if (!closing) {
            org.slf4j.LoggerFactory.getLogger(FragmentStore.class).warn("compacting segment {} failed (retried when "
                + "a fragment in it is deleted or at the next start): {}", segment, e.toString());
          }
        } finally {
          compactions.remove(segment);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      compactions.remove(segment); // closing
    }
  }

  /**
   * Copies a segment's live fragments to the active segment and deletes it. Each batch claims its
   * keys like a PUT, re-reads their locations (a fragment deleted or rewritten meanwhile is left
   * alone), appends, syncs and re-indexes; the file goes only when nothing points into it.
   */
  private void compact(int segment) throws IOException {
    List<byte[]> keys = new ArrayList<>();
    List<Integer> lengths = new ArrayList<>();
    reopenLock.readLock().lock();
    try {
      requireUsable();
      try (RocksIterator it = db.newIterator(locations)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          SegmentLog.Location l = SegmentLog.Location.decode(it.value());
          if (l.segment() == segment) {
            keys.add(it.key());
            lengths.add(l.length());
          }
        }
      }
    } finally {
      reopenLock.readLock().unlock();
    }
    int from = 0;
    while (from < keys.size()) {
      if (closing) {
        return;
      }
      int to = from;
      long bytes = 0;
      while (to < keys.size() && bytes < (8 << 20)) { // batches of about 8 MiB
        bytes += lengths.get(to);
        to++;
      }
      moveBatch(segment, keys.subList(from, to));
      from = to;
    }
    if (liveBytes(segment) == 0) {
      log.delete(segment);
      live.remove(segment);
      compactedSegments.incrementAndGet();
    }
  }

  private void moveBatch(int segment, List<byte[]> rawKeys) throws IOException {
    List<FragmentKey> corrupt = new ArrayList<>();
    try {
      moveBatch(segment, rawKeys, corrupt);
    } finally {
      corrupt.forEach(k -> corruptionListener.accept(k));
    }
  }

  private void moveBatch(int segment, List<byte[]> rawKeys, List<FragmentKey> corrupt) throws IOException {
    List<FragmentKey> keys = new ArrayList<>();
    for (byte[] k : rawKeys) {
      keys.add(FragmentKey.fromBytes(k));
    }
    java.util.concurrent.CompletableFuture<Void> mine = claim(keys);
    reopenLock.readLock().lock();
    try (WriteBatch batch = new WriteBatch()) {
      requireUsable();
      List<byte[]> moveKeys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      List<SegmentLog.Location> olds = new ArrayList<>();
      List<SegmentLog.Location> dropped = new ArrayList<>();
      for (byte[] k : rawKeys) {
        byte[] loc = db.get(locations, k);
        if (loc == null) {
          continue;
        }
        SegmentLog.Location old = SegmentLog.Location.decode(loc);
        if (old.segment() != segment) {
          continue;
        }
        byte[] value = log.read(old);
        try {
          Fragment.parse(value);
        } catch (CorruptDataException e) {
          // rotted on disk: not copied; dropped and reported like a failed read
          batch.delete(locations, k);
          corrupt.add(FragmentKey.fromBytes(k));
          dropped.add(old);
          continue;
        }
        moveKeys.add(k);
        values.add(value);
        olds.add(old);
      }
      if (moveKeys.isEmpty() && corrupt.isEmpty()) {
        return;
      }
      List<SegmentLog.Location> locs = moveKeys.isEmpty() ? List.of() : log.append(values);
      for (int i = 0; i < moveKeys.size(); i++) {
        batch.put(locations, moveKeys.get(i), locs.get(i).encode());
      }
      db.write(syncWrites, batch);
      for (int i = 0; i < locs.size(); i++) {
        live.computeIfAbsent(locs.get(i).segment(), x -> new AtomicLong()).addAndGet(locs.get(i).length());
        live.computeIfAbsent(segment, x -> new AtomicLong()).addAndGet(-olds.get(i).length());
      }
      for (SegmentLog.Location d : dropped) {
        live.computeIfAbsent(segment, x -> new AtomicLong()).addAndGet(-d.length());
        usedBytes.addAndGet(-d.length());
        count.decrementAndGet();
      }
    } catch (RocksDBException e) {
      noteFailure(e);
      throw new IOException("compacting segment " + segment + " failed: " + e.getMessage(), e);
    } finally {
      reopenLock.readLock().unlock();
      release(keys, mine);
    }
  }

  /** Why writes fail for lack of disk space, or null if they do not. */
  public String outOfSpace() {
    return outOfSpace;
  }

  /**
   * While out of space: tries a small synced write, and if it succeeds (RocksDB has recovered, or the
   * error has cleared), the store takes writes again. Returns whether writes work.
   */
  public synchronized boolean checkWritable() {
    if (outOfSpace == null) {
      return true;
    }
    if (closed || unusable != null) {
      return false;
    }
    // segment appends need room for their batches: a 1 MiB file must fit first
    try {
      Path probe = dir.resolve("space-probe");
      Files.write(probe, new byte[1 << 20]);
      Files.delete(probe);
    } catch (IOException e) {
      return false; // still no room
    }
    if (probeWrite()) {
      outOfSpace = null;
      return true;
    }
    // RocksDB keeps a failed WAL write as a background error (read-only) until the DB is reopened:
    // reopen it, excluding readers meanwhile
    reopenLock.writeLock().lock();
    try {
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
      handles.clear();
      db.close();
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
      locations = handles.get(1);
    } catch (RocksDBException e) {
      // the old DB is closed and no new one is open: every call now fails with this message
      unusable = "the fragment store could not be reopened after a full disk (" + e.getMessage() + "); restart the peer";
      outOfSpace = unusable;
      return false;
    } finally {
      reopenLock.writeLock().unlock();
    }
    if (probeWrite()) {
      outOfSpace = null;
      return true;
    }
    return false;
  }

  /** Call with the reopen lock held (shared): the DB is open and usable, or this throws. */
  private void requireUsable() throws IOException {
    if (closed) {
      throw new IOException("the fragment store is closed");
    }
    if (unusable != null) {
      throw new IOException(unusable);
    }
  }

  private boolean probeWrite() {
    try {
      db.put(handles.get(0), syncWrites, "writable-probe".getBytes(StandardCharsets.UTF_8),
          Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8));
      return true;
    } catch (RocksDBException e) {
      return false;
    }
  }

  private void noteFailure(IOException e) {
    if (String.valueOf(e.getMessage()).contains("No space left")) {
      outOfSpace = e.getMessage();
    }
  }

  private void noteFailure(RocksDBException e) {
    boolean noSpace = (e.getStatus() != null && e.getStatus().getSubCode() == org.rocksdb.Status.SubCode.NoSpace)
        || String.valueOf(e.getMessage()).contains("No space left");
    if (noSpace) {
      outOfSpace = e.getMessage();
    }
  }

  /** Up to {@code limit} held keys after {@code after} (null: from the start), in key order. */
  public List<FragmentKey> inventory(FragmentKey after, int limit) {
    List<FragmentKey> out = new ArrayList<>();
    reopenLock.readLock().lock();
    if (closed || unusable != null) {
      reopenLock.readLock().unlock();
      throw new java.io.UncheckedIOException(new IOException(closed ? "the fragment store is closed" : unusable));
    }
    try (RocksIterator it = db.newIterator(locations)) {
      if (after == null) {
        it.seekToFirst();
      } else {
        it.seek(after.toBytes());
        if (it.isValid() && java.util.Arrays.equals(it.key(), after.toBytes())) {
          it.next();
        }
      }
      for (; it.isValid() && out.size() < limit; it.next()) {
        out.add(FragmentKey.fromBytes(it.key()));
      }
    } finally {
      reopenLock.readLock().unlock();
    }
    return out;
  }

  @Override
  public synchronized void close() {
    closing = true;
    compactor.shutdownNow(); // a compaction in progress stops at its next I/O call (interrupted)
    // exclusive: no read, write or delete is inside RocksDB while its handles close
    reopenLock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      log.close();
      closeDb();
      if (durableWrites.get() > 0) { // what the peer's ingest cost in syncs (issue #19: per-PUT costs dominate)
        LOG.info("wrote {} fragments ({} bytes) in {} durable writes since opening (each a segment sync and a synced index write)",
            fragmentsWritten.get(), bytesWritten.get(), durableWrites.get());
      }
    } finally {
      reopenLock.writeLock().unlock();
    }
  }

  private void closeDb() {
    for (ColumnFamilyHandle h : handles) {
      h.close();
    }
    db.close();
    closeOptions();
  }

  private void closeOptions() {
    sstFiles.close();
    syncWrites.close();
    plainOptions.close();
    blobOptions.close();
    dbOptions.close();
  }
}
