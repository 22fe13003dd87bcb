package org.cairn.tracker.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The tracker's persistent state in one RocksDB with a column family per concern. This class owns
 * every native handle: it opens all column families explicitly (creating missing ones), and
 * {@link #close()} is idempotent and closes handles, then the DB, then the options. RocksDB errors
 * become {@link IOException}s naming the operation.
 */
public final class TrackerStore implements Closeable {
  /** The column families. */
  public enum Family {
    PEERS, COMPUTE, HISTORY, BANDWIDTH, VERSIONS, CHUNKS, POLICIES, SETS, SOFT;

    byte[] nameBytes() {
      return name().toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    }
  }

  static {
    RocksDB.loadLibrary();
    // RocksJava unpacked its native library into the temporary directory; a killed process would leave it there
    org.cairn.core.util.TempLibraries.unlinkLoaded("librocksdbjni");
    org.cairn.core.util.TempLibraries.sweepStale("librocksdbjni", java.time.Duration.ofMinutes(10));
  }

  private final DBOptions dbOptions;
  private final ColumnFamilyOptions cfOptions;
  private final WriteOptions writeOptions;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private final Map<Family, ColumnFamilyHandle> families = new EnumMap<>(Family.class);
  private final RocksDB db;
  private boolean closed;

  private TrackerStore(Path dir) throws IOException {
    dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
    cfOptions = new ColumnFamilyOptions();
    writeOptions = new WriteOptions();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
    for (Family f : Family.values()) {
      descriptors.add(new ColumnFamilyDescriptor(f.nameBytes(), cfOptions));
    }
    try {
      Files.createDirectories(dir);
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException("opening the tracker database in " + dir + " failed: " + e.getMessage(), e);
    }
    for (int i = 0; i < Family.values().length; i++) {
      families.put(Family.values()[i], handles.get(i + 1));
    }
  }

  public static TrackerStore open(Path dir) throws IOException {
    return new TrackerStore(dir);
  }

  public void put(Family f, byte[] key, byte[] value) throws IOException {
    try {
      db.put(families.get(f), writeOptions, key, value);
    } catch (RocksDBException e) {
      throw new IOException("writing " + f + " failed: " + e.getMessage(), e);
    }
  }

  public byte[] get(Family f, byte[] key) throws IOException {
    try {
      return db.get(families.get(f), key);
    } catch (RocksDBException e) {
      throw new IOException("reading " + f + " failed: " + e.getMessage(), e);
    }
  }

  public void delete(Family f, byte[] key) throws IOException {
    try {
      db.delete(families.get(f), writeOptions, key);
    } catch (RocksDBException e) {
      throw new IOException("deleting from " + f + " failed: " + e.getMessage(), e);
    }
  }

  /** Applies puts and deletes atomically. */
  public void write(Batch batch) throws IOException {
    try (WriteBatch wb = new WriteBatch()) {
      for (Batch.Op op : batch.ops) {
        if (op.value == null) {
          wb.delete(families.get(op.family), op.key);
        } else {
          wb.put(families.get(op.family), op.key, op.value);
        }
      }
      db.write(writeOptions, wb);
    } catch (RocksDBException e) {
      throw new IOException("writing a batch of " + batch.ops.size() + " changes failed: " + e.getMessage(), e);
    }
  }

  /**
   * A consistent point-in-time copy of the whole database in {@code target} (must not exist): a
   * RocksDB checkpoint, hard-linking the immutable table files where it can. Writes go on meanwhile.
   */
  public void checkpoint(Path target) throws IOException {
    try (org.rocksdb.Checkpoint cp = org.rocksdb.Checkpoint.create(db)) {
      cp.createCheckpoint(target.toString());
    } catch (RocksDBException e) {
      throw new IOException("checkpoint to " + target + " failed: " + e.getMessage(), e);
    }
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
    try (RocksIterator it = db.newIterator(families.get(f))) {
      if (prefix.length == 0) {
        it.seekToFirst();
      } else {
        it.seek(prefix);
      }
      for (; it.isValid(); it.next()) {
        byte[] key = it.key();
        if (key.length < prefix.length || !Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
          break;
        }
        if (!visitor.visit(key, it.value())) {
          break;
        }
      }
      it.status();
    } catch (RocksDBException e) {
      throw new IOException("scanning " + f + " failed: " + e.getMessage(), e);
    }
  }

  /** Visits entries with keys strictly after {@code after} (empty: from the first), in key order. */
  public void scanAfter(Family f, byte[] after, EntryVisitor visitor) throws IOException {
    try (RocksIterator it = db.newIterator(families.get(f))) {
      if (after.length == 0) {
        it.seekToFirst();
      } else {
        it.seek(after);
        if (it.isValid() && Arrays.equals(it.key(), after)) {
          it.next();
        }
      }
      for (; it.isValid(); it.next()) {
        if (!visitor.visit(it.key(), it.value())) {
          break;
        }
      }
      it.status();
    } catch (RocksDBException e) {
      throw new IOException("scanning " + f + " failed: " + e.getMessage(), e);
    }
  }

  /** Receives entries of a scan; return false to stop. */
  @FunctionalInterface
  public interface EntryVisitor {
    boolean visit(byte[] key, byte[] value) throws IOException;
  }

  /** Changes to apply together with {@link #write}. */
  public static final class Batch {
    private final List<Op> ops = new ArrayList<>();

    public Batch put(Family f, byte[] key, byte[] value) {
      ops.add(new Op(f, key, value));
      return this;
    }

    public Batch delete(Family f, byte[] key) {
      ops.add(new Op(f, key, null));
      return this;
    }

    private static final class Op {
      final Family family;
      final byte[] key;
      final byte[] value;

      Op(Family family, byte[] key, byte[] value) {
        this.family = family;
        this.key = key;
        this.value = value;
      }
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (ColumnFamilyHandle h : handles) {
      h.close();
    }
    db.close();
    closeOptions();
  }

  private void closeOptions() {
    writeOptions.close();
    cfOptions.close();
    dbOptions.close();
  }
}
