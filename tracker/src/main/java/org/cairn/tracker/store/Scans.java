package org.cairn.tracker.store;

import java.io.IOException;
import java.util.Arrays;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The tracker database's iterations for {@link TrackerStore}: a prefix scan, a scan after a key, the last key under a
 * prefix. Each holds the store's open handles for its length (a group member installing a snapshot swaps them).
 */
final class Scans {
  private final OpenDb db;

  Scans(OpenDb db) {
    this.db = db;
  }

  /** Visits every entry whose key starts with {@code prefix} (empty: all), in key order. */
  void scan(TrackerStore.Family f, byte[] prefix, TrackerStore.EntryVisitor visitor) throws IOException {
    Handles h = db.use();
    try (RocksIterator it = h.db().newIterator(h.of(f))) {
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
    } finally {
      db.done();
    }
  }

  /**
   * The greatest key that starts with {@code prefix} and is at most {@code prefix.length + tail} bytes
   * long, or null: one seek, no values read (a node's latest step without reading its versions).
   */
  byte[] lastKey(TrackerStore.Family f, byte[] prefix, int tail) throws IOException {
    byte[] upper = Arrays.copyOf(prefix, prefix.length + tail);
    Arrays.fill(upper, prefix.length, upper.length, (byte) 0xFF);
    Handles h = db.use();
    try (RocksIterator it = h.db().newIterator(h.of(f))) {
      it.seekForPrev(upper);
      byte[] key = it.isValid() ? it.key() : null;
      it.status();
      return key != null && key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length) ? key : null;
    } catch (RocksDBException e) {
      throw new IOException("seeking in " + f + " failed: " + e.getMessage(), e);
    } finally {
      db.done();
    }
  }

  /** Visits entries with keys strictly after {@code after} (empty: from the first), in key order. */
  void scanAfter(TrackerStore.Family f, byte[] after, TrackerStore.EntryVisitor visitor) throws IOException {
    Handles h = db.use();
    try (RocksIterator it = h.db().newIterator(h.of(f))) {
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
    } finally {
      db.done();
    }
  }
}
