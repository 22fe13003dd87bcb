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
 * Fragments on the donor's disk, in RocksDB with blob files: values (the serialised fragment, header
 * + payload) of 4 KiB or more go to blob files, so compaction moves keys, not fragment bytes. Key =
 * FragmentKey (chunk id + index + tag, the header's CRC: two apps' differently made pieces of one
 * chunk are two entries, never one replacing the other). A second column family keeps each fragment's size so the store
 * knows its usage on open without reading any blob.
 *
 * Every fragment is verified (Fragment.parse: header and payload CRC32C) before it is written and
 * after it is read; a fragment that fails on read is deleted and reported as missing, so it is never
 * served. Writes go in one WriteBatch with sync, so a PUT is durable before it is acknowledged.
 * One instance owns every native handle; close() is idempotent and closes handles, DB, options.
 *
 * A full disk: a write that fails with ENOSPC puts RocksDB into read-only mode (its background
 * error). The store then says it is out of space (the peer refuses new pieces and reports no free
 * bytes, reads go on). checkWritable(), called on the peer's heartbeat tick, tries a small synced
 * write; RocksDB recovers some such errors by itself (the SstFileManager set on the DB polls for
 * space), but a failed WAL write stays until the DB is reopened, so once 1 MiB can be written
 * beside it again the DB is closed and reopened (readers wait on a lock for that moment).
 */
public final class FragmentStore implements Closeable {
  static {
    RocksDB.loadLibrary();
    // RocksJava unpacked its native library into the temporary directory; a killed process would leave it there
    org.cairn.core.util.TempLibraries.unlinkLoaded("librocksdbjni");
    org.cairn.core.util.TempLibraries.sweepStale("librocksdbjni", java.time.Duration.ofMinutes(10));
  }

  private final DBOptions dbOptions;
  private final ColumnFamilyOptions blobOptions;
  private final ColumnFamilyOptions plainOptions;
  private final WriteOptions syncWrites;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private RocksDB db;
  private ColumnFamilyHandle fragments;
  private ColumnFamilyHandle sizes;
  private final Path dir;
  private final List<ColumnFamilyDescriptor> descriptors;
  /** Readers hold it shared; reopening the DB after a full disk holds it exclusively. */
  private final java.util.concurrent.locks.ReentrantReadWriteLock reopenLock = new java.util.concurrent.locks.ReentrantReadWriteLock();
  private final AtomicLong usedBytes = new AtomicLong();
  private final AtomicLong count = new AtomicLong();
  /** Bytes written and read since open (the load monitor's fallback measure). */
  private final AtomicLong ioBytes = new AtomicLong();
  private volatile java.util.function.Consumer<FragmentKey> corruptionListener = k -> { };
  private final org.rocksdb.SstFileManager sstFiles;
  /** Why writes fail for lack of space (null while they do not). */
  private volatile String outOfSpace;
  /** Set when a reopen failed: the DB handle is closed and must not be touched. */
  private volatile String unusable;
  private volatile boolean closed;

  private FragmentStore(Path dir) throws IOException {
    this.dir = dir;
    try {
      sstFiles = new org.rocksdb.SstFileManager(org.rocksdb.Env.getDefault());
    } catch (RocksDBException e) {
      throw new IOException("creating RocksDB's file manager failed: " + e.getMessage(), e);
    }
    // with an SstFileManager RocksDB recovers from an out-of-space background error when space returns
    dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true).setSstFileManager(sstFiles);
    blobOptions = new ColumnFamilyOptions()
        .setEnableBlobFiles(true)
        .setMinBlobSize(4096)
        .setBlobFileSize(256L << 20)
        .setBlobCompressionType(CompressionType.NO_COMPRESSION) // payloads are compressed already
        .setEnableBlobGarbageCollection(true);
    plainOptions = new ColumnFamilyOptions();
    syncWrites = new WriteOptions().setSync(true);
    descriptors = List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plainOptions),
        new ColumnFamilyDescriptor("fragments".getBytes(StandardCharsets.UTF_8), blobOptions),
        new ColumnFamilyDescriptor("sizes".getBytes(StandardCharsets.UTF_8), plainOptions));
    try {
      Files.createDirectories(dir);
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException("opening the fragment store in " + dir + " failed: " + e.getMessage(), e);
    }
    fragments = handles.get(1);
    sizes = handles.get(2);
    try {
      checkFormat();
    } catch (IOException e) {
      close();
      throw e;
    }
    try (RocksIterator it = db.newIterator(sizes)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        usedBytes.addAndGet(ByteBuffer.wrap(it.value()).getInt() & 0xFFFFFFFFL);
        count.incrementAndGet();
      }
    }
  }

  /** The key format: 2 since keys carry the fragment's tag (37 bytes); 1 (unmarked) had 33-byte keys. */
  static final int FORMAT = 2;
  private static final byte[] FORMAT_KEY = "format".getBytes(StandardCharsets.UTF_8);

  private void checkFormat() throws IOException {
    try {
      byte[] v = db.get(handles.get(0), FORMAT_KEY);
      if (v == null) {
        try (RocksIterator it = db.newIterator(sizes)) {
          it.seekToFirst();
          if (it.isValid()) {
            throw new IOException("the fragment store in " + dir + " is from an older Cairn (" + it.key().length
                + "-byte keys, format 1); this build reads format " + FORMAT + ". Move the directory away and let repair refill the peer");
          }
        }
        db.put(handles.get(0), syncWrites, FORMAT_KEY, Integer.toString(FORMAT).getBytes(StandardCharsets.UTF_8));
      } else if (!new String(v, StandardCharsets.UTF_8).equals(Integer.toString(FORMAT))) {
        throw new IOException("the fragment store in " + dir + " has format " + new String(v, StandardCharsets.UTF_8)
            + "; this build reads format " + FORMAT);
      }
    } catch (RocksDBException e) {
      throw new IOException("reading the fragment store's format in " + dir + " failed: " + e.getMessage(), e);
    }
  }

  public static FragmentStore open(Path dir) throws IOException {
    return new FragmentStore(dir);
  }

  /** Bytes of stored fragments (headers included). */
  public long usedBytes() {
    return usedBytes.get();
  }

  public long fragmentCount() {
    return count.get();
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
      Fragment f = Fragment.parse(bytes); // throws CorruptDataException naming what is wrong
      byKey.put(new FragmentKey(f.chunkId(), f.index(), Fragment.tagOf(bytes, 0)), bytes);
    }
    List<FragmentKey> keys = new ArrayList<>(byKey.keySet());
    java.util.concurrent.CompletableFuture<Void> mine = claim(keys);
    long added = 0;
    long addedCount = 0;
    reopenLock.readLock().lock();
    try (WriteBatch batch = new WriteBatch()) {
      requireUsable();
      for (FragmentKey k : keys) {
        byte[] key = k.toBytes();
        byte[] oldSize = db.get(sizes, key);
        byte[] value = byKey.get(k);
        batch.put(fragments, key, value);
        batch.put(sizes, key, ByteBuffer.allocate(4).putInt(value.length).array());
        if (oldSize == null) {
          added += value.length;
          addedCount++;
        } else {
          added += value.length - (ByteBuffer.wrap(oldSize).getInt() & 0xFFFFFFFFL);
        }
      }
      db.write(syncWrites, batch);
      usedBytes.addAndGet(added);
      count.addAndGet(addedCount);
    } catch (RocksDBException e) {
      noteFailure(e);
      throw new IOException("storing " + serialized.size() + " fragments failed: " + e.getMessage(), e);
    } finally {
      reopenLock.readLock().unlock();
      release(keys, mine);
    }
    for (byte[] v : byKey.values()) {
      ioBytes.addAndGet(v.length);
    }
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
    byte[] value;
    RocksDBException failure = null;
    reopenLock.readLock().lock();
    try {
      requireUsable();
      value = db.get(fragments, key.toBytes());
    } catch (RocksDBException e) {
      failure = e;
      value = null;
    } finally {
      reopenLock.readLock().unlock();
    }
    if (failure != null) {
      RocksDBException e = failure;
      if (e.getStatus() != null && e.getStatus().getCode() == org.rocksdb.Status.Code.Corruption) {
        // the blob's own checksum failed: the same as our CRC failing
        delete(List.of(key));
        corruptionListener.accept(key);
        throw new CorruptDataException("fragment " + key + " was corrupt on disk and has been dropped: " + e.getMessage(), e);
      }
      throw new IOException("reading fragment " + key + " failed: " + e.getMessage(), e);
    }
    if (value == null) {
      return null;
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

  /** Called (on the reading thread) with each fragment found corrupt and dropped, so it can be reported. */
  public void onCorruption(java.util.function.Consumer<FragmentKey> listener) {
    this.corruptionListener = java.util.Objects.requireNonNull(listener);
  }

  public boolean contains(FragmentKey key) throws IOException {
    reopenLock.readLock().lock();
    try {
      requireUsable();
      return db.get(sizes, key.toBytes()) != null;
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
    reopenLock.readLock().lock();
    try (WriteBatch batch = new WriteBatch()) {
      requireUsable();
      for (FragmentKey k : unique) {
        byte[] key = k.toBytes();
        byte[] size = db.get(sizes, key);
        if (size != null) {
          batch.delete(fragments, key);
          batch.delete(sizes, key);
          freed += ByteBuffer.wrap(size).getInt() & 0xFFFFFFFFL;
          deleted++;
        }
      }
      db.write(syncWrites, batch);
      usedBytes.addAndGet(-freed);
      count.addAndGet(-deleted);
    } catch (RocksDBException e) {
      noteFailure(e);
      throw new IOException("deleting " + keys.size() + " fragments failed: " + e.getMessage(), e);
    } finally {
      reopenLock.readLock().unlock();
      release(unique, mine);
    }
    return deleted;
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
    if (probeWrite()) {
      outOfSpace = null;
      return true;
    }
    // RocksDB keeps a failed WAL write as a background error (read-only) until the DB is reopened:
    // reopen it, excluding readers meanwhile, once the probe says there is room again
    try {
      Path probe = dir.resolve("space-probe");
      Files.write(probe, new byte[1 << 20]);
      Files.delete(probe);
    } catch (IOException e) {
      return false; // still no room
    }
    reopenLock.writeLock().lock();
    try {
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
      handles.clear();
      db.close();
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
      fragments = handles.get(1);
      sizes = handles.get(2);
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
    try (RocksIterator it = db.newIterator(sizes)) {
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
    // exclusive: no read, write or delete is inside RocksDB while its handles close
    reopenLock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
      db.close();
      closeOptions();
    } finally {
      reopenLock.writeLock().unlock();
    }
  }

  private void closeOptions() {
    sstFiles.close();
    syncWrites.close();
    plainOptions.close();
    blobOptions.close();
    dbOptions.close();
  }
}
