package org.cairn.peer.store.index;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileManager;
import org.rocksdb.WriteOptions;

/*
 * The native option objects the fragment index opens its RocksDB with, and the column families it
 * opens: the default one (the format marker), "locations" (FragmentKey -> SegmentLog.Location),
 * and a format-2 store's "fragments" and "sizes" while it is converted. Owned by one FragmentIndex,
 * closed after its DB.
 */
final class IndexOptions implements Closeable {
  static final byte[] LOCATIONS = "locations".getBytes(StandardCharsets.UTF_8);
  /** A format-2 store's fragment bytes (RocksDB blob files); opened only to convert them. */
  static final String FORMAT2_BLOBS = "fragments";
  private static final List<String> FORMAT2_FAMILIES = List.of(FORMAT2_BLOBS, "sizes");

  private final SstFileManager sstFiles;
  final DBOptions db;
  private final ColumnFamilyOptions blobs;
  private final ColumnFamilyOptions plain;
  /**
   * The locations' family: whole-key Bloom filters in its tables and its memtable, so the lookup a PUT
   * makes for each new fragment (absent nearly always) is answered by {@code keyMayExist} without a
   * read; RocksJava's {@code get} of an absent key unwinds a C++ exception (1.5 % of a peer's CPU
   * while ingesting, measured).
   */
  private final ColumnFamilyOptions locations;
  private final BloomFilter bloom;
  final WriteOptions synced;
  final WriteOptions soft;

  IndexOptions() throws IOException {
    try {
      sstFiles = new SstFileManager(Env.getDefault());
    } catch (RocksDBException e) {
      throw new IOException("creating RocksDB's file manager failed: " + e.getMessage(), e);
    }
    // with an SstFileManager RocksDB recovers from an out-of-space background error when space returns
    db = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true).setSstFileManager(sstFiles);
    blobs = new ColumnFamilyOptions().setEnableBlobFiles(true).setMinBlobSize(4096).setBlobFileSize(256L << 20)
        .setBlobCompressionType(CompressionType.NO_COMPRESSION).setEnableBlobGarbageCollection(true);
    plain = new ColumnFamilyOptions();
    bloom = new BloomFilter(10);
    locations = new ColumnFamilyOptions().setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(bloom))
        .setMemtablePrefixBloomSizeRatio(0.02).setMemtableWholeKeyFiltering(true);
    synced = new WriteOptions().setSync(true);
    soft = new WriteOptions().setSync(false);
  }

  /** The families to open: default and locations first, then those of a format-2 store found among {@code existing}. */
  List<ColumnFamilyDescriptor> descriptors(List<String> existing) {
    List<ColumnFamilyDescriptor> ds = new ArrayList<>();
    ds.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plain));
    ds.add(new ColumnFamilyDescriptor(LOCATIONS, locations));
    for (String old : FORMAT2_FAMILIES) {
      if (existing.contains(old)) {
        ds.add(new ColumnFamilyDescriptor(old.getBytes(StandardCharsets.UTF_8), old.equals(FORMAT2_BLOBS) ? blobs : plain));
      }
    }
    return ds;
  }

  @Override
  public void close() {
    sstFiles.close();
    synced.close();
    soft.close();
    plain.close();
    locations.close();
    bloom.close();
    blobs.close();
    db.close();
  }
}
