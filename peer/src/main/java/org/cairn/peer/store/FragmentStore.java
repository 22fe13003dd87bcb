package org.cairn.peer.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.cairn.core.CorruptDataException;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.peer.store.index.FragmentIndex;
import org.cairn.peer.store.index.IndexChanges;
import org.cairn.peer.store.segment.SegmentLog;

/*
 * Fragments on the donor's disk, in the way BookKeeper keeps ledger entries: their bytes (the
 * serialised fragment, header + payload) go once to append-only segment files (SegmentLog), an
 * index (FragmentIndex, RocksDB) maps each FragmentKey (chunk id + index + tag, the header's CRC:
 * two apps' differently made pieces of one chunk are two entries, never one replacing the other) to
 * its location, and a Compactor reclaims dead space. This class is what the peer sees: it keeps the
 * accounting (LiveBytes), serves reads, deletes, and owns the lifecycle; a PUT's write is BatchWrites
 * (verified before anything is written, durable before it is acknowledged, each byte written once),
 * and a full disk is SpaceGuard's (the peer refuses new pieces, reads go on, until a probe fits).
 * A fragment that fails verification on read is deleted and reported as missing, never served.
 *
 * Lifecycle: open() opens the index, the log (a new active segment), converts an old format, counts
 * live bytes, deletes segments nothing points into and queues sparse ones; close() stops the
 * compactor, then waits for calls in progress and closes log and index. Idempotent.
 */
public final class FragmentStore implements Closeable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FragmentStore.class);

  /** Segment files of 64 MiB: compaction copies at most half of one at a time. */
  static final long SEGMENT_BYTES = 64L << 20;
  static final int FORMAT = FragmentIndex.FORMAT;

  private final FragmentIndex index;
  private final SegmentLog log;
  private final LiveBytes live = new LiveBytes();
  private final KeyLocks locks = new KeyLocks();
  private final Compactor compactor;
  private final IoCounters io = new IoCounters();
  private volatile Consumer<FragmentKey> corruptionListener = k -> { };
  private final SpaceGuard space;
  private final BatchWrites writes;
  private volatile boolean closed;
  private SoftWrites soft;

  /** How often soft writes are made durable in the background unless the peer says otherwise. */
  public static final java.time.Duration DEFAULT_SOFT_SYNC = java.time.Duration.ofSeconds(1);

  private FragmentStore(Path dir, long segmentBytes) throws IOException {
    this(dir, segmentBytes, DEFAULT_SOFT_SYNC, true);
  }

  private FragmentStore(Path dir, long segmentBytes, java.time.Duration softSync, boolean directIo) throws IOException {
    Files.createDirectories(dir);
    index = FragmentIndex.open(dir);
    space = new SpaceGuard(dir, index);
    SegmentLog opened;
    try {
      opened = SegmentLog.open(dir.resolve("segments"), segmentBytes, directIo);
    } catch (IOException | RuntimeException e) {
      index.close();
      throw e;
    }
    log = opened;
    compactor = new Compactor(log, index, live, locks, k -> corruptionListener.accept(k));
    writes = new BatchWrites(index, log, live, locks, compactor, io, space, this::requireOpen);
    try {
      index.migrate(log);
      index.forEach((k, at) -> live.added(at));
      soft = new SoftWrites(dir.resolve("soft.state"), softSync, () -> {
        log.syncAll(); // the bytes first, then the index entries that point at them
        index.syncWal();
      });
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    compactor.sweepAtOpen();
  }

  public static FragmentStore open(Path dir) throws IOException {
    return new FragmentStore(dir, SEGMENT_BYTES);
  }

  /** With soft writes made durable every {@code softSync}. */
  public static FragmentStore open(Path dir, java.time.Duration softSync) throws IOException {
    return new FragmentStore(dir, SEGMENT_BYTES, softSync, true);
  }

  /**
   * With soft writes made durable every {@code softSync}; {@code directIo} false writes segments through the page
   * cache even where the file system takes O_DIRECT (the peer's {@code cairn.peer.directIo}).
   */
  public static FragmentStore open(Path dir, java.time.Duration softSync, boolean directIo) throws IOException {
    return new FragmentStore(dir, SEGMENT_BYTES, softSync, directIo);
  }

  /** Where soft writes stand: this run's boot id and the highest soft write number durable. */
  public record SoftState(long boot, long durable) {}

  public SoftState softState() {
    SoftWrites.State s = soft.state();
    return new SoftState(s.boot(), s.durable());
  }

  /** Makes every soft write so far durable now (tests; a clean close does it too). */
  public void flushSoftWrites() throws IOException {
    soft.flushNow();
  }

  /** With a given segment size (tests use small ones to exercise compaction). */
  static FragmentStore open(Path dir, long segmentBytes) throws IOException {
    return new FragmentStore(dir, segmentBytes);
  }

  /** Segments compacted since open (for tests and logs). */
  long compactedSegments() {
    return compactor.compacted();
  }

  /** Segment file ids and sizes (for tests). */
  Map<Integer, Long> segmentSizes() {
    return log.sizes();
  }

  /** Bytes of stored fragments (headers included). */
  public long usedBytes() {
    return live.bytes();
  }

  /** How durable writes reach the disk (direct I/O or the page cache), for the log. */
  public String writeMode() {
    return log.writeMode();
  }

  public long fragmentCount() {
    return live.count();
  }

  /**
   * Bytes the store's segment files take on the disk: the live fragments plus dead space that
   * compaction has not reclaimed yet. The peer's quota counts these, so dead space cannot take the
   * disk beyond what the owner donated.
   */
  public long diskBytes() {
    return log.totalBytes();
  }

  /** Compacts sealed segments, most dead space first, until dead space is at most {@code maxDeadBytes}; returns how many. */
  public int compactDeadSpace(long maxDeadBytes) throws IOException {
    return compactor.compactDeadSpace(maxDeadBytes);
  }

  /** {@link #compactDeadSpace} in the background unless one is queued or running; returns whether it was queued. */
  public boolean requestDeadSpaceCompaction(long maxDeadBytes) {
    return compactor.requestDeadSpace(maxDeadBytes);
  }

  /** The disk's write rate for fragments, bytes/s (see {@link WriteRate}); call once per heartbeat. */
  public double sampleWriteRate() {
    return io.sampleWriteRate();
  }

  /** Fragment bytes written and read since the store was opened. */
  /** Bytes of fragments durably written since the store opened (the donor's download). */
  public long bytesWritten() {
    return io.bytesWritten();
  }

  /** Durable writes (a segment sync and a synced index write each) since the store opened. */
  public long durableWrites() {
    return io.durableWrites();
  }

  public long ioBytes() {
    return io.ioBytes();
  }

  /** As {@link #putBuffers}, for fragments as arrays. */
  public long putAll(List<byte[]> serialized) throws IOException {
    List<ByteBuf> bufs = new ArrayList<>(serialized.size());
    for (byte[] b : serialized) {
      bufs.add(Unpooled.wrappedBuffer(b));
    }
    return putBuffers(bufs);
  }

  /**
   * Verifies every fragment (each buffer's readable bytes; not retained, not released, indices kept),
   * then stores all of them durably in one batch (nothing is stored if any fails verification).
   * Returns the bytes newly added (fragments already held are not counted twice). Batches that share
   * a key take turns; others run concurrently and share their syncs.
   */
  public long putBuffers(List<ByteBuf> fragments) throws IOException {
    return writes.put(fragments, true);
  }

  /**
   * As {@link #putBuffers}, but acknowledged before the bytes are durable (the soft level): the
   * fragments are readable at once and made durable in the background. Returns the soft write's
   * number; it is durable once {@link #softState()} reaches it under the same boot id.
   */
  public long putSoft(List<ByteBuf> fragments) throws IOException {
    writes.put(fragments, false);
    return soft.written();
  }

  /**
   * The verified bytes of a fragment, or null if it is not here. A fragment that fails verification
   * is deleted and reported through {@link CorruptDataException}.
   */
  public byte[] get(FragmentKey key) throws IOException {
    requireOpen();
    byte[] value;
    for (int attempt = 0; ; attempt++) {
      SegmentLog.Location at = index.get(key);
      if (at == null) {
        return null;
      }
      try {
        value = log.read(at);
        break;
      } catch (SegmentLog.SegmentGoneException e) {
        if (attempt >= 3) {
          throw e; // compaction moved it again and again: give up rather than spin
        }
        // compaction moved it between the lookup and the read: look it up again
      }
    }
    io.read(value.length);
    try {
      Fragment f = Fragment.parse(value);
      if (!f.chunkId().equals(key.chunkId()) || f.index() != key.index() || Fragment.tagOf(value, 0) != key.tag()) {
        throw new CorruptDataException("stored under " + key + " but is fragment " + f.index() + " of " + f.chunkId().shortHex()
            + " with tag " + FragmentKey.tagHex(Fragment.tagOf(value, 0)));
      }
    } catch (CorruptDataException e) {
      delete(List.of(key));
      corruptionListener.accept(key);
      throw new CorruptDataException("fragment " + key + " was corrupt on disk and has been dropped: " + e.getMessage(), e);
    }
    return value;
  }

  /** Called (on the reading or compacting thread) with each fragment found corrupt and dropped, so it can be reported. */
  public void onCorruption(Consumer<FragmentKey> listener) {
    this.corruptionListener = Objects.requireNonNull(listener);
  }

  public boolean contains(FragmentKey key) throws IOException {
    requireOpen();
    return index.get(key) != null;
  }

  /** Deletes the keys held; returns how many were. */
  public int delete(List<FragmentKey> keys) throws IOException {
    List<FragmentKey> unique = new ArrayList<>(new LinkedHashSet<>(keys));
    List<SegmentLog.Location> gone = new ArrayList<>();
    try (KeyLocks.Claim claim = locks.claim(unique)) {
      requireOpen();
      IndexChanges changes = new IndexChanges();
      for (FragmentKey k : unique) {
        SegmentLog.Location at = index.get(k);
        if (at != null) {
          changes.delete(k.toBytes());
          gone.add(at);
        }
      }
      try {
        index.commit(changes);
      } catch (IOException e) {
        space.noteFailure(e);
        throw e;
      }
      gone.forEach(live::removed);
    }
    gone.stream().map(SegmentLog.Location::segment).distinct().forEach(compactor::maybeCompact);
    return gone.size();
  }

  /** Up to {@code limit} held keys after {@code after} (null: from the start), in key order. */
  public List<FragmentKey> inventory(FragmentKey after, int limit) {
    try {
      return index.keysAfter(after, limit);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Why writes fail for lack of disk space, or null if they do not. */
  public String outOfSpace() {
    return space.reason();
  }

  /** While out of space: whether writes work again ({@link SpaceGuard}); call on the heartbeat tick. */
  public synchronized boolean checkWritable() {
    if (space.reason() == null) {
      return true;
    }
    return !closed && space.checkWritable();
  }

  private void requireOpen() throws IOException {
    if (closed) {
      throw new IOException("the fragment store is closed");
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    compactor.close(); // a compaction in progress stops at its next I/O call (interrupted)
    if (soft != null) {
      try {
        soft.close(); // soft writes made durable, the boot id kept for the next run
      } catch (IOException e) {
        LOG.warn("soft writes could not be made durable at close (the tracker will count them lost): {}", e.getMessage());
      }
    }
    index.close(); // waits for calls inside the index
    log.close();
    io.logTotals();
  }
}
