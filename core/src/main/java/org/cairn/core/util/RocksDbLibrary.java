package org.cairn.core.util;

import java.time.Duration;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * RocksDB's native library for the processes that open a RocksDB (a peer's fragment index, the
 * tracker's store): from the user's cache, unpacked there once ({@link NativeCache}; RocksJava's
 * own loading unpacks 14 MB into the temporary directory at every start), under the file name
 * {@code RocksDB.loadLibrary(dirs)} looks for. A fall-back load unpacks into the temporary
 * directory, where a killed process would leave its copy: the loaded copy is unlinked and stale
 * ones swept ({@link TempLibraries}).
 */
public final class RocksDbLibrary {
  private static boolean loaded;

  private RocksDbLibrary() {}

  /** Loads the library, once per process. */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    NativeCache.load(RocksDB.class, Environment.getJniLibraryFileName("rocksdb"), Environment.getJniLibraryFileName("rocksdbjni"),
        RocksDB::loadLibrary, RocksDB::loadLibrary);
    TempLibraries.unlinkLoaded("librocksdbjni");
    TempLibraries.sweepStale("librocksdbjni", Duration.ofMinutes(10));
    loaded = true;
  }
}
