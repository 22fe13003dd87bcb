package org.cairn.tracker.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/** The tracker's open RocksDB and a handle per column family ({@link TrackerStore} owns and swaps them). */
record Handles(RocksDB db, List<ColumnFamilyHandle> all, Map<TrackerStore.Family, ColumnFamilyHandle> families) {

  ColumnFamilyHandle of(TrackerStore.Family f) {
    return families.get(f);
  }

  /** Opens every column family explicitly, creating missing ones. */
  static Handles open(Path dir, DBOptions dbOptions, ColumnFamilyOptions cfOptions) throws IOException {
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
    for (TrackerStore.Family f : TrackerStore.Family.values()) {
      descriptors.add(new ColumnFamilyDescriptor(f.nameBytes(), cfOptions));
    }
    List<ColumnFamilyHandle> all = new ArrayList<>();
    RocksDB db;
    try {
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, all);
    } catch (RocksDBException e) {
      throw new IOException("opening the tracker database in " + dir + " failed: " + e.getMessage(), e);
    }
    Map<TrackerStore.Family, ColumnFamilyHandle> families = new EnumMap<>(TrackerStore.Family.class);
    for (int i = 0; i < TrackerStore.Family.values().length; i++) {
      families.put(TrackerStore.Family.values()[i], all.get(i + 1));
    }
    return new Handles(db, all, families);
  }

  void close() {
    for (ColumnFamilyHandle h : all) {
      h.close();
    }
    db.close();
  }

  /**
   * With the database closed: moves {@code dir} aside and fills a new one with the files of the
   * RocksDB checkpoint in {@code checkpoint} (not Ratis' {@code .md5} files). Table files, which
   * RocksDB never changes, are hard-linked where the file system allows; the rest is copied, so the
   * opened database never writes into the checkpoint. Returns where the old files are: delete them
   * once the new database opens, or {@link #putBack} them if it does not.
   */
  static Path replaceFiles(Path dir, Path checkpoint) throws IOException {
    Path aside = dir.resolveSibling(dir.getFileName() + ".replaced");
    org.cairn.core.util.FileTrees.delete(aside);
    Files.move(dir, aside);
    Files.createDirectories(dir);
    try (var files = Files.list(checkpoint)) {
      for (Path f : files.filter(f -> !f.getFileName().toString().endsWith(".md5")).toList()) {
        Path to = dir.resolve(f.getFileName());
        if (f.getFileName().toString().endsWith(".sst")) {
          try {
            Files.createLink(to, f);
            continue;
          } catch (IOException | UnsupportedOperationException e) {
            // another file system: copy
          }
        }
        Files.copy(f, to);
      }
    }
    return aside;
  }

  /** Undoes {@link #replaceFiles}: the files moved aside become {@code dir} again. */
  static void putBack(Path dir, Path aside) throws IOException {
    org.cairn.core.util.FileTrees.delete(dir);
    Files.move(aside, dir);
  }
}
