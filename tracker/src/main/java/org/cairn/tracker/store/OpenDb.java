package org.cairn.tracker.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDBException;

/**
 * The tracker's RocksDB as it is open now, and the options it was opened with: every read and write holds the swap
 * lock's read side between {@link #use} and {@link #done}; {@link #restoreFrom} (a group member installing a snapshot)
 * takes the write side and swaps the database under it. {@link #close} closes the handles, then the options; it is
 * idempotent.
 */
final class OpenDb {
  /**
   * Bits per key of each table file's Bloom filter (RocksDB wiki, "RocksDB Bloom Filter": 10 bits give about 1 %
   * false positives). A commit looks up every chunk it names in the chunk index, and nearly all of them are new: without
   * a filter each of those misses reads a data block of every level and level-0 file it could be in, which was most of
   * a commit's time and of its tail (docs/simulation.md, "The catalog at scale"); with it, nearly none does. The
   * filters cost about 1.2 MB of memory per million keys.
   */
  static final int BLOOM_BITS_PER_KEY = 10;

  private final Path dir;
  private final DBOptions dbOptions;
  private final BloomFilter filter;
  private final ColumnFamilyOptions cfOptions;
  private final ReentrantReadWriteLock swap = new ReentrantReadWriteLock();
  private Handles handles;

  private OpenDb(Path dir, DBOptions dbOptions) {
    this.dir = dir;
    this.dbOptions = dbOptions;
    this.filter = new BloomFilter(BLOOM_BITS_PER_KEY);
    this.cfOptions = new ColumnFamilyOptions().setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(filter));
  }

  /** Opens (creating it and missing column families) the database in {@code dir}; {@code statistics} may be null. */
  static OpenDb open(Path dir, org.rocksdb.Statistics statistics) throws IOException {
    DBOptions dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
    if (statistics != null) {
      dbOptions.setStatistics(statistics);
    }
    OpenDb db = new OpenDb(dir, dbOptions);
    try {
      Files.createDirectories(dir);
      db.handles = Handles.open(dir, dbOptions, db.cfOptions);
      return db;
    } catch (IOException e) {
      db.closeOptions();
      throw e;
    }
  }

  /** The open handles, with the swap lock's read side held (release with {@link #done}). */
  Handles use() throws IOException {
    swap.readLock().lock();
    if (handles == null) {
      swap.readLock().unlock();
      throw new IOException("the tracker database in " + dir + " is closed");
    }
    return handles;
  }

  void done() {
    swap.readLock().unlock();
  }

  /**
   * Replaces the whole database with the RocksDB checkpoint in {@code checkpoint}: closes it, moves the old files
   * aside, links or copies the checkpoint's files in, opens it again (the old files back if the new ones do not open).
   * Every call waits meanwhile.
   */
  void restoreFrom(Path checkpoint) throws IOException {
    swap.writeLock().lock();
    try {
      if (handles == null) {
        throw new IOException("the tracker database in " + dir + " is closed");
      }
      handles.close();
      handles = null;
      Path aside = Handles.replaceFiles(dir, checkpoint);
      try {
        handles = Handles.open(dir, dbOptions, cfOptions);
      } catch (IOException e) {
        Handles.putBack(dir, aside); // the store stays as it was
        handles = Handles.open(dir, dbOptions, cfOptions);
        throw new IOException("the snapshot in " + checkpoint + " does not open as the tracker's database; kept the old one", e);
      }
      org.cairn.core.util.FileTrees.delete(aside);
    } finally {
      swap.writeLock().unlock();
    }
  }

  /** A RocksDB checkpoint of the whole database in {@code target} (must not exist); writes go on meanwhile. */
  void checkpoint(Path target) throws IOException {
    Handles h = use();
    try (org.rocksdb.Checkpoint cp = org.rocksdb.Checkpoint.create(h.db())) {
      cp.createCheckpoint(target.toString());
    } catch (RocksDBException e) {
      throw new IOException("checkpoint to " + target + " failed: " + e.getMessage(), e);
    } finally {
      done();
    }
  }

  /** Closes the handles (waiting for calls in progress), then the options. */
  void close() {
    swap.writeLock().lock();
    try {
      if (handles != null) {
        handles.close();
        handles = null;
      }
    } finally {
      swap.writeLock().unlock();
    }
    closeOptions();
  }

  private void closeOptions() {
    cfOptions.close();
    filter.close();
    dbOptions.close();
  }
}
