package org.cairn.peer.store.segment;

import io.netty.buffer.ByteBuf;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The fragments' bytes: append-only segment files (segments/NNNNNNNN.seg), each written once and
 * then only read, until the store copies its live fragments out and deletes it.
 *
 * append() writes a batch's values one after another at the end of the active segment (one
 * gathering write from the buffers the fragments arrived in), under a lock, then makes them durable
 * with fdatasync outside it. Syncs are grouped: a writer whose bytes
 * another writer's sync already covered does not sync again, so concurrent PUTs from several
 * connections share one fsync. When the active segment reaches its size limit the next append
 * starts a new one (and syncs the directory, so the new file's name is durable too).
 *
 * A segment's bytes mean nothing by themselves: the store's index (RocksDB) says which ranges hold
 * which fragment, and it is written only after the bytes are durable. A crash between the two, or a
 * failed write, leaves unreferenced bytes, which count as dead space until the segment is
 * compacted. Every open starts a new active segment, so a torn tail is never appended to.
 *
 * Durable appends bypass the page cache where the file system allows it (SegmentAppends,
 * DirectAppender): each starts at a block boundary and is padded to the next, so a segment has dead
 * bytes between batches. Soft writes (left in the page cache for a later sync) stay buffered.
 */
public final class SegmentLog implements Closeable {
  /** Where a fragment's bytes are: segment, offset, length. 16 bytes as an index value. */
  public record Location(int segment, long offset, int length) {
    public byte[] encode() {
      return ByteBuffer.allocate(16).putInt(segment).putLong(offset).putInt(length).array();
    }

    public static Location decode(byte[] b) {
      ByteBuffer bb = ByteBuffer.wrap(b);
      return new Location(bb.getInt(), bb.getLong(), bb.getInt());
    }
  }

  /** The segment a location names has been compacted away since the location was read: look it up again. */
  public static final class SegmentGoneException extends IOException {
    SegmentGoneException(int segment) {
      super("segment " + segment + " has been compacted away");
    }
  }


  private final Path dir;
  private final long segmentBytes;
  private final SegmentAppends appends;
  private final Map<Integer, Segment> segments = new ConcurrentHashMap<>();
  private final ReentrantLock appendLock = new ReentrantLock();
  private volatile Segment active;

  private SegmentLog(Path dir, long segmentBytes, DirectAppender directAppender) {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
    this.appends = new SegmentAppends(directAppender);
  }

  /** Opens the segments in {@code dir} (created if missing) and starts a new active segment, with direct I/O where it works. */
  public static SegmentLog open(Path dir, long segmentBytes) throws IOException {
    return open(dir, segmentBytes, true);
  }

  /**
   * Opens the segments in {@code dir} (created if missing) and starts a new active segment; {@code directIo} false
   * writes through the page cache even where the file system takes O_DIRECT.
   */
  public static SegmentLog open(Path dir, long segmentBytes, boolean directIo) throws IOException {
    if (segmentBytes < 1 << 20) {
      throw new IllegalArgumentException("segments must be at least 1 MiB, was " + segmentBytes);
    }
    Files.createDirectories(dir);
    SegmentLog log = new SegmentLog(dir, segmentBytes, directIo ? DirectAppender.probe(dir) : null);
    int last = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.seg")) {
      for (Path p : files) {
        String name = p.getFileName().toString();
        int id;
        try {
          id = Integer.parseInt(name.substring(0, name.length() - 4));
        } catch (NumberFormatException e) {
          continue; // not one of ours
        }
        FileChannel ch = FileChannel.open(p, StandardOpenOption.READ);
        log.segments.put(id, new Segment(id, p, ch, ch.size()));
        last = Math.max(last, id);
      }
    }
    try {
      log.active = log.create(last + 1);
    } catch (IOException e) {
      log.close();
      throw e;
    }
    return log;
  }

  private Segment create(int id) throws IOException {
    Path p = dir.resolve(String.format("%08d.seg", id));
    FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    Segment s = new Segment(id, p, ch, 0);
    try {
      appends.openDirect(s);
    } catch (IOException e) {
      ch.close();
      throw e;
    }
    segments.put(id, s);
    syncDirectory();
    return s;
  }

  private void syncDirectory() throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  /**
   * Appends the values (each one's readable bytes; their indices are not changed), contiguous in one
   * segment, and returns once they are durable: through O_DIRECT from an aligned copy where the
   * file system allows it, otherwise one gathering write from the buffers as they are. On failure (a
   * full disk) nothing is referenced and the segment is cut back to where it was.
   */
  public List<Location> append(List<ByteBuf> values) throws IOException {
    return append(values, true);
  }

  /**
   * As {@link #append(List)}; with {@code durable} false the bytes are left in the page cache, for
   * {@link #syncAll} to make durable later (a soft write).
   */
  public List<Location> append(List<ByteBuf> values, boolean durable) throws IOException {
    long total = 0;
    for (ByteBuf v : values) {
      total += v.readableBytes();
    }
    Segment seg;
    long start;
    long end;
    appendLock.lock();
    try {
      seg = active;
      boolean direct = durable && seg.direct != null;
      if (seg.size > 0 && (direct ? appends.align(seg.size) : seg.size) + total > segmentBytes) {
        seg = roll();
        direct = durable && seg.direct != null;
      }
      long directStart = direct ? appends.align(seg.size) : -1;
      long directEnd = direct ? appends.directUnlessRefused(seg, directStart, values) : -1;
      if (directEnd >= 0) {
        start = directStart;
        end = directEnd;
      } else {
        start = seg.size;
        end = start + total;
        SegmentAppends.buffered(seg, start, end, values);
      }
      seg.size = end;
    } finally {
      appendLock.unlock();
    }
    if (durable) {
      seg.syncTo(end);
    }
    List<Location> out = new ArrayList<>(values.size());
    long pos = start;
    for (ByteBuf v : values) {
      out.add(new Location(seg.id, pos, v.readableBytes()));
      pos += v.readableBytes();
    }
    return out;
  }

  /** How durable appends reach the disk, for the peer's log. */
  public String writeMode() {
    return appends.mode();
  }

  /** Makes everything appended so far durable, in every segment that has unsynced bytes (soft writes). */
  public void syncAll() throws IOException {
    for (Segment seg : segments.values()) {
      if (seg.synced < seg.size && !seg.closing) {
        try {
          seg.syncTo(seg.size);
        } catch (IOException e) {
          if (segments.get(seg.id) == seg) {
            throw e;
          }
          // deleted meanwhile (compacted): its live bytes were copied and synced elsewhere
        }
      }
    }
  }

  /** Starts the next segment; call with the append lock held. The old one stays open for reads and pending syncs. */
  private Segment roll() throws IOException {
    Segment old = active;
    Segment next = create(active.id + 1);
    active = next;
    SegmentAppends.closeDirect(old);
    return next;
  }


  /** The bytes at a location; SegmentGoneException if the segment was deleted meanwhile. */
  public byte[] read(Location loc) throws IOException {
    Segment seg = segments.get(loc.segment());
    if (seg == null) {
      throw new SegmentGoneException(loc.segment());
    }
    seg.deleteLock.readLock().lock();
    try {
      if (seg.deleted) {
        throw new SegmentGoneException(loc.segment());
      }
      if (loc.offset() + loc.length() > seg.size) {
        throw new IOException("segment " + loc.segment() + " holds " + seg.size + " bytes; the index points at "
            + loc.offset() + "+" + loc.length() + " (the file was truncated)");
      }
      return seg.io(ch -> {
        ByteBuffer buf = ByteBuffer.allocate(loc.length());
        long pos = loc.offset();
        while (buf.hasRemaining()) {
          int n = ch.read(buf, pos);
          if (n < 0) {
            throw new IOException("segment " + loc.segment() + " ends before " + (loc.offset() + loc.length()));
          }
          pos += n;
        }
        return buf.array();
      });
    } finally {
      seg.deleteLock.readLock().unlock();
    }
  }

  /** Segment ids and their sizes in bytes, oldest first. */
  public Map<Integer, Long> sizes() {
    Map<Integer, Long> out = new TreeMap<>();
    for (Segment s : segments.values()) {
      out.put(s.id, s.size);
    }
    return out;
  }

  /** A segment's size in bytes, or -1 if there is no such segment. */
  public long size(int id) {
    Segment s = segments.get(id);
    return s == null ? -1 : s.size;
  }

  public int activeId() {
    return active.id;
  }

  /** Bytes in all segment files, dead space included: what the store takes on the disk. */
  public long totalBytes() {
    long sum = 0;
    for (Segment s : segments.values()) {
      sum += s.size;
    }
    return sum;
  }

  /** The ids of the segments, the active one included. */
  public java.util.Set<Integer> ids() {
    return new java.util.TreeSet<>(segments.keySet());
  }

  /** Deletes a segment (not the active one) once no read is inside it. */
  public void delete(int id) throws IOException {
    if (id == active.id) {
      throw new IllegalArgumentException("segment " + id + " is being written");
    }
    Segment seg = segments.get(id);
    if (seg == null) {
      return;
    }
    seg.deleteLock.writeLock().lock();
    try {
      seg.deleted = true;
      segments.remove(id);
      synchronized (seg) {
        seg.channel.close();
      }
      Files.deleteIfExists(seg.path);
    } finally {
      seg.deleteLock.writeLock().unlock();
    }
  }

  @Override
  public void close() {
    appendLock.lock();
    try {
      for (Segment s : segments.values()) {
        SegmentAppends.closeDirect(s);
      }
    } finally {
      appendLock.unlock();
    }
    for (Segment s : segments.values()) {
      s.closing = true;
      try {
        synchronized (s) {
          s.channel.close();
        }
      } catch (IOException e) {
        // closing a read or synced channel: nothing left to lose
      }
    }
  }
}
