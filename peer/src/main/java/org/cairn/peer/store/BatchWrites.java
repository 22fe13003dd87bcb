package org.cairn.peer.store;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.peer.store.index.FragmentIndex;
import org.cairn.peer.store.index.IndexChanges;
import org.cairn.peer.store.segment.SegmentLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PUT's write path: verifies every fragment (header and payload CRC32C) before anything is
 * written, claims the batch's keys, skips fragments already held with the same bytes, appends the
 * rest with one gathering write and syncs the segment (one fdatasync shared by concurrent batches),
 * then commits their index entries with one synced write (RocksDB groups concurrent ones): durable
 * before it is acknowledged, each byte written once. Soft writes skip both syncs.
 */
final class BatchWrites {
  private static final Logger LOG = LoggerFactory.getLogger(BatchWrites.class);

  /** Throws if the store is closed. */
  @FunctionalInterface
  interface Open {
    void require() throws IOException;
  }

  private final FragmentIndex index;
  private final SegmentLog log;
  private final LiveBytes live;
  private final KeyLocks locks;
  private final Compactor compactor;
  private final IoCounters io;
  private final SpaceGuard space;
  private final Open open;

  BatchWrites(FragmentIndex index, SegmentLog log, LiveBytes live, KeyLocks locks, Compactor compactor, IoCounters io,
      SpaceGuard space, Open open) {
    this.index = index;
    this.log = log;
    this.live = live;
    this.locks = locks;
    this.compactor = compactor;
    this.io = io;
    this.space = space;
    this.open = open;
  }

  /**
   * Stores the fragments (each buffer's readable bytes; not retained, not released, indices kept),
   * all or, if any fails verification, none; durably unless {@code durable} is false. Returns the
   * bytes newly added.
   */
  long put(List<ByteBuf> fragments, boolean durable) throws IOException {
    Map<FragmentKey, ByteBuf> byKey = new LinkedHashMap<>(); // a key twice in one batch: once
    for (ByteBuf f : fragments) {
      Fragment.Header h = Fragment.verify(f); // throws CorruptDataException naming what is wrong
      byKey.put(new FragmentKey(h.chunkId, h.index, Fragment.tagOf(f)), f);
    }
    List<FragmentKey> keys = new ArrayList<>(byKey.keySet());
    long added = 0;
    List<SegmentLog.Location> replaced = new ArrayList<>();
    try (KeyLocks.Claim claim = locks.claim(keys)) {
      open.require();
      // fragments already here with the same bytes (same key = same header, so same length) are not written again
      List<FragmentKey> fresh = new ArrayList<>(keys.size());
      List<ByteBuf> values = new ArrayList<>(keys.size());
      for (FragmentKey k : keys) {
        ByteBuf value = byKey.get(k);
        SegmentLog.Location old = index.get(k);
        if (old != null) {
          if (old.length() == value.readableBytes()) {
            continue;
          }
          if (intact(k, old)) {
            // same key, other bytes: a forged header (CRC32C is no signature); the piece held stays
            LOG.warn("kept fragment {}: a PUT brought other bytes under its key ({} bytes, held {})", k, value.readableBytes(), old.length());
            continue;
          }
          replaced.add(old);
        }
        fresh.add(k);
        values.add(value);
      }
      if (fresh.isEmpty()) {
        return 0;
      }
      long writing = values.stream().mapToLong(ByteBuf::readableBytes).sum();
      io.beginWrite();
      boolean written = false;
      List<SegmentLog.Location> locs;
      try {
        locs = log.append(values, durable);
        IndexChanges changes = new IndexChanges();
        for (int i = 0; i < fresh.size(); i++) {
          changes.put(fresh.get(i).toBytes(), locs.get(i));
        }
        index.commit(changes, durable);
        written = true;
      } catch (IOException e) {
        space.noteFailure(e);
        throw e;
      } finally {
        io.endWrite(written, writing, fresh.size());
      }
      for (SegmentLog.Location l : locs) {
        live.added(l);
        added += l.length();
      }
      for (SegmentLog.Location o : replaced) {
        live.removed(o);
        added -= o.length();
      }
    }
    replaced.stream().map(SegmentLog.Location::segment).distinct().forEach(compactor::maybeCompact);
    return added;
  }

  /** Whether the piece at {@code at} reads back whole and is the fragment {@code key} names. */
  private boolean intact(FragmentKey key, SegmentLog.Location at) {
    try {
      byte[] held = log.read(at);
      Fragment f = Fragment.parse(held);
      return f.chunkId().equals(key.chunkId()) && f.index() == key.index() && Fragment.tagOf(held, 0) == key.tag();
    } catch (SegmentLog.SegmentGoneException e) {
      return true; // compaction is moving it: it is whole, and stays
    } catch (IOException e) {
      return false; // unreadable or corrupt: the new bytes may replace it
    }
  }

}
