package org.cairn.peer.store.index;

import java.util.ArrayList;
import java.util.List;
import org.cairn.peer.store.segment.SegmentLog;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/** Index changes made together by {@link FragmentIndex#commit}: puts and deletes, by key bytes. */
public final class IndexChanges {
  private final List<byte[]> putKeys = new ArrayList<>();
  private final List<byte[]> putValues = new ArrayList<>();
  private final List<byte[]> deletes = new ArrayList<>();

  public IndexChanges put(byte[] key, SegmentLog.Location at) {
    putKeys.add(key);
    putValues.add(at.encode());
    return this;
  }

  public IndexChanges delete(byte[] key) {
    deletes.add(key);
    return this;
  }

  public boolean isEmpty() {
    return putKeys.isEmpty() && deletes.isEmpty();
  }

  /** How many entries the changes put or delete. */
  public int size() {
    return putKeys.size() + deletes.size();
  }

  /** Adds every change to {@code batch}, in column family {@code family}. */
  void addTo(WriteBatch batch, ColumnFamilyHandle family) throws RocksDBException {
    for (int i = 0; i < putKeys.size(); i++) {
      batch.put(family, putKeys.get(i), putValues.get(i));
    }
    for (byte[] k : deletes) {
      batch.delete(family, k);
    }
  }
}
