package org.cairn.peer.store.index;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.peer.store.segment.SegmentLog;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The store's index in RocksDB: FragmentKey (chunk id + index + tag) -> SegmentLog.Location. Every
 * change is one synced write batch, made after the bytes it points at are durable. This class owns
 * the DB and its column families, and the native options they were opened with (IndexOptions);
 * close() is idempotent.
 *
 * A full disk: a write that fails for lack of space puts RocksDB into read-only mode until the DB is
 * reopened (reopen(), which waits for every call in progress: calls hold a shared lock). A reopen
 * that fails leaves the index unusable: every call then fails with the reason.
 *
 * Formats: 3 (marked) keeps locations; 2 kept the fragments' bytes in a blob column family and is
 * converted by migrate() (Format2Conversion); 1 (unmarked, 33-byte keys) is refused.
 */
public final class FragmentIndex implements Closeable {
  static {
    org.cairn.core.util.RocksDbLibrary.load(); // from the user's cache, unpacked there once
  }

  public static final int FORMAT = 3;
  private static final byte[] FORMAT_KEY = "format".getBytes(StandardCharsets.UTF_8);

  private final Path dir;
  private final IndexOptions options;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private List<ColumnFamilyDescriptor> descriptors;
  private RocksDB db;
  private ColumnFamilyHandle locations;
  /** Calls hold it shared; reopening and closing hold it exclusively. */
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** Set when a reopen failed: the DB handle is closed and must not be touched. */
  private volatile String unusable;
  private volatile boolean closed;

  private FragmentIndex(Path dir) throws IOException {
    this.dir = dir;
    this.options = new IndexOptions();
    try {
      Files.createDirectories(dir);
      List<String> existing = new ArrayList<>();
      if (Files.exists(dir.resolve("CURRENT"))) {
        try (org.rocksdb.Options listing = new org.rocksdb.Options()) {
          for (byte[] name : RocksDB.listColumnFamilies(listing, dir.toString())) {
            existing.add(new String(name, StandardCharsets.UTF_8));
          }
        }
      }
      descriptors = options.descriptors(existing);
      db = RocksDB.open(options.db, dir.toString(), descriptors, handles);
      locations = handles.get(1);
    } catch (RocksDBException | IOException e) {
      options.close();
      throw new IOException("opening the fragment index in " + dir + " failed: " + e.getMessage(), e);
    }
  }

  public static FragmentIndex open(Path dir) throws IOException {
    return new FragmentIndex(dir);
  }

  /** Checks the format, converts a format-2 store (its bytes go to {@code log}) and marks format 3. */
  public void migrate(SegmentLog log) throws IOException {
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
        convertFormat2(log);
      } else if (!format.equals(Integer.toString(FORMAT))) {
        throw new IOException("the fragment store in " + dir + " has format " + format + "; this build reads format " + FORMAT);
      }
      db.put(handles.get(0), options.synced, FORMAT_KEY, Integer.toString(FORMAT).getBytes(StandardCharsets.UTF_8));
    } catch (RocksDBException e) {
      throw new IOException("reading the fragment store's format in " + dir + " failed: " + e.getMessage(), e);
    }
  }

  /** Format 2 -> 3 ({@link Format2Conversion}), then the old column families are dropped. */
  private void convertFormat2(SegmentLog log) throws IOException, RocksDBException {
    long moved = 0;
    for (int i = 2; i < descriptors.size(); i++) {
      if (new String(descriptors.get(i).getName(), StandardCharsets.UTF_8).equals(IndexOptions.FORMAT2_BLOBS)) {
        moved = Format2Conversion.copy(db, handles.get(i), log, this);
      }
    }
    for (int i = handles.size() - 1; i >= 2; i--) {
      db.dropColumnFamily(handles.get(i));
      handles.remove(i).close();
    }
    descriptors = descriptors.subList(0, 2);
    org.slf4j.LoggerFactory.getLogger(FragmentIndex.class).info("fragment store in {} converted to format {}: {} fragments "
        + "moved from RocksDB blob files to segment files", dir, FORMAT, moved);
  }

  /** Where a fragment is, or null if it is not indexed. */
  public SegmentLog.Location get(FragmentKey key) throws IOException {
    return get(key.toBytes());
  }

  public SegmentLog.Location get(byte[] key) throws IOException {
    lock.readLock().lock();
    try {
      requireUsable();
      if (!db.keyMayExist(locations, key, null)) {
        return null; // certainly absent
      }
      byte[] v = db.get(locations, key);
      return v == null ? null : SegmentLog.Location.decode(v);
    } catch (RocksDBException e) {
      throw failure("looking up a fragment", e);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Makes the changes durably, all or none. Concurrent commits share their WAL sync (RocksDB's group commit). */
  public void commit(IndexChanges changes) throws IOException {
    commit(changes, true);
  }

  /** As {@link #commit(IndexChanges)}; with {@code durable} false the WAL is not synced (a soft write: {@link #syncWal} later). */
  public void commit(IndexChanges changes, boolean durable) throws IOException {
    if (changes.isEmpty()) {
      return;
    }
    lock.readLock().lock();
    try (WriteBatch batch = new WriteBatch()) {
      requireUsable();
      changes.addTo(batch, locations);
      db.write(durable ? options.synced : options.soft, batch);
    } catch (RocksDBException e) {
      throw failure("writing " + changes.size() + " index entries", e);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Calls {@code each} with every entry, in key order (raw key bytes, location). */
  public void forEach(BiConsumer<byte[], SegmentLog.Location> each) throws IOException {
    lock.readLock().lock();
    try (RocksIterator it = iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        each.accept(it.key(), SegmentLog.Location.decode(it.value()));
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Up to {@code limit} keys after {@code after} (null: from the start), in key order. */
  public List<FragmentKey> keysAfter(FragmentKey after, int limit) throws IOException {
    List<FragmentKey> out = new ArrayList<>();
    lock.readLock().lock();
    try (RocksIterator it = iterator()) {
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
      lock.readLock().unlock();
    }
    return out;
  }

  /** Call with the lock held (shared). */
  private RocksIterator iterator() throws IOException {
    requireUsable();
    return db.newIterator(locations);
  }

  /** Makes every index write so far durable (the soft writes' WAL records). */
  public void syncWal() throws IOException {
    lock.readLock().lock();
    try {
      requireUsable();
      db.syncWal();
    } catch (RocksDBException e) {
      throw failure("syncing the index's log", e);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A small synced write: whether the index takes writes now. */
  public boolean probeWrite() {
    lock.readLock().lock();
    try {
      requireUsable();
      db.put(handles.get(0), options.synced, "writable-probe".getBytes(StandardCharsets.UTF_8),
          Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8));
      return true;
    } catch (RocksDBException | IOException e) {
      return false;
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Closes and opens the DB again (RocksDB keeps a failed WAL write as a background error until
   * then), once every call in progress is done. If the open fails the index is unusable from then on.
   */
  public void reopen() throws IOException {
    lock.writeLock().lock();
    try {
      requireUsable();
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
      handles.clear();
      db.close();
      db = RocksDB.open(options.db, dir.toString(), descriptors, handles);
      locations = handles.get(1);
    } catch (RocksDBException e) {
      unusable = "the fragment store could not be reopened after a full disk (" + e.getMessage() + "); restart the peer";
      throw new IOException(unusable, e);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Why the index cannot be used (closed, or a failed reopen), or null. */
  public String unusable() {
    return closed ? "the fragment store is closed" : unusable;
  }

  private void requireUsable() throws IOException {
    String why = unusable();
    if (why != null) {
      throw new IOException(why);
    }
  }

  private IOException failure(String what, RocksDBException e) {
    boolean noSpace = (e.getStatus() != null && e.getStatus().getSubCode() == org.rocksdb.Status.SubCode.NoSpace)
        || String.valueOf(e.getMessage()).contains("No space left");
    String message = what + " in " + dir + " failed: " + e.getMessage();
    return noSpace ? new OutOfSpaceException(message, e) : new IOException(message, e);
  }

  /** A write failed for lack of disk space. */
  public static final class OutOfSpaceException extends IOException {
    OutOfSpaceException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Waits for calls in progress, then closes every handle. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (unusable == null) {
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
        db.close();
      }
      options.close();
    } finally {
      lock.writeLock().unlock();
    }
  }
}
