package org.cairn.peer.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.cairn.core.CorruptDataException;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.peer.store.index.FragmentIndex;
import org.cairn.peer.store.index.IndexChanges;
import org.cairn.peer.store.segment.SegmentLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims dead space: copies a sealed segment's live fragments to the active segment and deletes
 * the file. Segments less than half live are queued as fragments die ({@link #maybeCompact}); the
 * peer asks for more when dead space eats into its quota ({@link #requestDeadSpace}). Each batch of
 * about 8 MiB claims its keys like a PUT, re-reads their locations (a fragment deleted or rewritten
 * meanwhile is left alone), appends, syncs and re-indexes; a file goes only when nothing points into
 * it. A fragment found rotten is dropped and reported, never copied. One background thread;
 * {@link #close} interrupts it (a compaction stops at its next I/O call and is not reported as failed).
 */
final class Compactor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);
  private static final int BATCH_BYTES = 8 << 20;

  private final SegmentLog log;
  private final FragmentIndex index;
  private final LiveBytes live;
  private final KeyLocks locks;
  private final Consumer<FragmentKey> corrupt;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "segment-compactor");
    t.setDaemon(true);
    return t;
  });
  private final Set<Integer> running = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean deadSpaceQueued = new AtomicBoolean();
  private final AtomicLong compacted = new AtomicLong();
  private volatile boolean closing;

  /** @param corrupt told of each fragment found rotten and dropped (on the compacting thread) */
  Compactor(SegmentLog log, FragmentIndex index, LiveBytes live, KeyLocks locks, Consumer<FragmentKey> corrupt) {
    this.log = log;
    this.index = index;
    this.live = live;
    this.locks = locks;
    this.corrupt = corrupt;
  }

  /** Segments compacted since open. */
  long compacted() {
    return compacted.get();
  }

  /**
   * At open, with live bytes counted: segments nothing points into (crashed or failed writes, an
   * interrupted compaction) go now; sparse ones are queued.
   */
  void sweepAtOpen() throws IOException {
    for (Map.Entry<Integer, Long> e : log.sizes().entrySet()) {
      if (e.getKey() != log.activeId()) {
        if (live.inSegment(e.getKey()) == 0) {
          log.delete(e.getKey());
        } else {
          maybeCompact(e.getKey());
        }
      }
    }
  }

  /** Queues a segment that is no longer written for compaction once less than half of it is live. */
  void maybeCompact(int segment) {
    if (closing || segment == log.activeId()) {
      return;
    }
    long size = log.size(segment);
    if (size < 0 || live.inSegment(segment) * 2 >= size || !running.add(segment)) {
      return;
    }
    try {
      thread.execute(() -> {
        try {
          compact(segment);
        } catch (IOException | RuntimeException e) {
          if (!closing) {
            LOG.warn("compacting segment {} failed (retried when a fragment in it is deleted or at the next start): {}", segment, e.toString());
          }
        } finally {
          running.remove(segment);
        }
      });
    } catch (RejectedExecutionException e) {
      running.remove(segment); // closing
    }
  }

  /**
   * Compacts sealed segments, the ones with the most dead space first, until the dead space is at
   * most {@code maxDeadBytes} or only the active segment is left. Returns the number compacted.
   * Only segments sealed when it starts are taken: the ones its copies fill have dead bytes of their
   * own (direct writes pad each batch to a block), and taking them too would never end.
   */
  int compactDeadSpace(long maxDeadBytes) throws IOException {
    int done = 0;
    Set<Integer> tried = new HashSet<>();
    Set<Integer> sealed = log.ids();
    sealed.remove(log.activeId());
    while (!closing && log.totalBytes() - live.bytes() > maxDeadBytes) {
      int worst = -1;
      long worstDead = 0;
      for (int id : sealed) {
        long size = log.size(id);
        long dead = size - live.inSegment(id);
        if (size > 0 && dead > worstDead && !tried.contains(id) && !running.contains(id)) {
          worst = id;
          worstDead = dead;
        }
      }
      if (worst < 0) {
        break;
      }
      tried.add(worst);
      if (!running.add(worst)) {
        continue; // the background thread took it meanwhile
      }
      try {
        compact(worst);
      } finally {
        running.remove(worst);
      }
      done++;
    }
    return done;
  }

  /** {@link #compactDeadSpace} on the background thread unless one is queued or running; returns whether it was queued. */
  boolean requestDeadSpace(long maxDeadBytes) {
    if (closing || log.totalBytes() - live.bytes() <= maxDeadBytes || !deadSpaceQueued.compareAndSet(false, true)) {
      return false;
    }
    try {
      thread.execute(() -> {
        try {
          int n = compactDeadSpace(maxDeadBytes);
          if (n > 0) {
            LOG.info("compacted {} segments to reclaim dead space: {} bytes on disk for {} live", n, log.totalBytes(), live.bytes());
          }
        } catch (IOException | RuntimeException e) {
          if (!closing) {
            LOG.warn("compacting dead space failed (retried later): {}", e.toString());
          }
        } finally {
          deadSpaceQueued.set(false);
        }
      });
      return true;
    } catch (RejectedExecutionException e) {
      deadSpaceQueued.set(false);
      return false;
    }
  }

  private void compact(int segment) throws IOException {
    List<byte[]> keys = new ArrayList<>();
    List<Integer> lengths = new ArrayList<>();
    index.forEach((k, at) -> {
      if (at.segment() == segment) {
        keys.add(k);
        lengths.add(at.length());
      }
    });
    int from = 0;
    while (from < keys.size()) {
      if (closing) {
        return;
      }
      int to = from;
      long bytes = 0;
      while (to < keys.size() && bytes < BATCH_BYTES) {
        bytes += lengths.get(to);
        to++;
      }
      List<FragmentKey> rotten = new ArrayList<>();
      try {
        moveBatch(segment, keys.subList(from, to), rotten);
      } finally {
        rotten.forEach(corrupt);
      }
      from = to;
    }
    if (live.inSegment(segment) == 0) {
      log.delete(segment);
      live.forget(segment);
      compacted.incrementAndGet();
    }
  }

  private void moveBatch(int segment, List<byte[]> rawKeys, List<FragmentKey> rotten) throws IOException {
    List<FragmentKey> keys = new ArrayList<>(rawKeys.size());
    for (byte[] k : rawKeys) {
      keys.add(FragmentKey.fromBytes(k));
    }
    try (KeyLocks.Claim claim = locks.claim(keys)) {
      List<byte[]> moveKeys = new ArrayList<>();
      List<ByteBuf> values = new ArrayList<>();
      List<SegmentLog.Location> olds = new ArrayList<>();
      List<SegmentLog.Location> dropped = new ArrayList<>();
      IndexChanges changes = new IndexChanges();
      for (byte[] k : rawKeys) {
        SegmentLog.Location old = index.get(k);
        if (old == null || old.segment() != segment) {
          continue;
        }
        byte[] value = log.read(old);
        try {
          Fragment.parse(value);
        } catch (CorruptDataException e) {
          changes.delete(k); // rotted on disk: not copied; dropped and reported like a failed read
          rotten.add(FragmentKey.fromBytes(k));
          dropped.add(old);
          continue;
        }
        moveKeys.add(k);
        values.add(Unpooled.wrappedBuffer(value));
        olds.add(old);
      }
      if (moveKeys.isEmpty() && dropped.isEmpty()) {
        return;
      }
      List<SegmentLog.Location> locs = moveKeys.isEmpty() ? List.of() : log.append(values);
      for (int i = 0; i < moveKeys.size(); i++) {
        changes.put(moveKeys.get(i), locs.get(i));
      }
      index.commit(changes);
      for (int i = 0; i < locs.size(); i++) {
        live.moved(olds.get(i), locs.get(i));
      }
      dropped.forEach(live::removed);
    }
  }

  /** Stops the background thread; a compaction in progress stops at its next I/O call. */
  @Override
  public void close() {
    closing = true;
    thread.shutdownNow();
  }
}
