package org.cairn.peer.store.index;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.cairn.peer.store.segment.SegmentLog;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/*
 * Format 2 -> 3 of a fragment store: format 2 kept each fragment's bytes in a RocksDB blob column
 * family; format 3 keeps them in the segment log and only their locations in RocksDB. Copies every
 * fragment into the log in batches of ~16 MB and indexes each batch once its bytes are durable.
 * Interrupted, the conversion runs again at the next open (the marker still says 2); bytes copied
 * twice are dead space that compaction reclaims.
 */
final class Format2Conversion {
  private static final long BATCH_BYTES = 16 << 20;

  private Format2Conversion() {}

  /** Copies every fragment of {@code blobs} into {@code log} and indexes it in {@code index}; returns how many. */
  static long copy(RocksDB db, ColumnFamilyHandle blobs, SegmentLog log, FragmentIndex index) throws IOException {
    long moved = 0;
    List<byte[]> keys = new ArrayList<>();
    List<ByteBuf> values = new ArrayList<>();
    long batchBytes = 0;
    try (RocksIterator it = db.newIterator(blobs)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        keys.add(it.key());
        values.add(Unpooled.wrappedBuffer(it.value()));
        batchBytes += values.get(values.size() - 1).readableBytes();
        if (batchBytes >= BATCH_BYTES) {
          moved += indexCopies(log, index, keys, values);
          keys.clear();
          values.clear();
          batchBytes = 0;
        }
      }
    }
    return moved + indexCopies(log, index, keys, values);
  }

  private static int indexCopies(SegmentLog log, FragmentIndex index, List<byte[]> keys, List<ByteBuf> values) throws IOException {
    if (keys.isEmpty()) {
      return 0;
    }
    List<SegmentLog.Location> locs = log.append(values);
    IndexChanges c = new IndexChanges();
    for (int i = 0; i < keys.size(); i++) {
      c.put(keys.get(i), locs.get(i));
    }
    index.commit(c);
    return keys.size();
  }
}
