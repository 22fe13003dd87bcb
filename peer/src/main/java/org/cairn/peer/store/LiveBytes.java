package org.cairn.peer.store;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.peer.store.segment.SegmentLog;

/**
 * What the index points at: fragments held, their bytes, and the live bytes in each segment (the
 * rest of a segment is dead space: replaced or deleted fragments, failed writes, alignment). Counted
 * from the index on open and kept up to date by every index change; the compactor reads it to pick
 * segments, the peer to report its usage.
 */
final class LiveBytes {
  private final ConcurrentHashMap<Integer, AtomicLong> perSegment = new ConcurrentHashMap<>();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong count = new AtomicLong();

  /** A fragment is now indexed at {@code at}. */
  void added(SegmentLog.Location at) {
    segment(at.segment()).addAndGet(at.length());
    bytes.addAndGet(at.length());
    count.incrementAndGet();
  }

  /** The fragment indexed at {@code at} is no longer (deleted, replaced or dropped as corrupt). */
  void removed(SegmentLog.Location at) {
    segment(at.segment()).addAndGet(-at.length());
    bytes.addAndGet(-at.length());
    count.decrementAndGet();
  }

  /** A fragment moved from {@code from} to {@code to} (compaction): the totals stay. */
  void moved(SegmentLog.Location from, SegmentLog.Location to) {
    segment(to.segment()).addAndGet(to.length());
    segment(from.segment()).addAndGet(-from.length());
  }

  long inSegment(int segment) {
    AtomicLong l = perSegment.get(segment);
    return l == null ? 0 : l.get();
  }

  /** A segment deleted from the disk. */
  void forget(int segment) {
    perSegment.remove(segment);
  }

  long bytes() {
    return bytes.get();
  }

  long count() {
    return count.get();
  }

  private AtomicLong segment(int id) {
    return perSegment.computeIfAbsent(id, x -> new AtomicLong());
  }
}
