package org.cairn.peer.store.segment;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * How a batch's bytes reach a segment file, under the log's append lock: through the segment's
 * O_DIRECT channel from an aligned copy ({@link DirectAppender}) where the file system allows it,
 * padded to the next block, otherwise one gathering write through the page cache from the buffers
 * as they are. A failed write cuts the file back to where it was. If the file system refuses a
 * direct write it took the probe for, every later write goes through the page cache.
 */
final class SegmentAppends {
  /** Null: every write goes through the page cache. */
  private final DirectAppender directAppender;
  /** Why direct writes stopped (a write the file system refused), or null. */
  private volatile String directRefused;

  SegmentAppends(DirectAppender directAppender) {
    this.directAppender = directAppender;
  }

  /** Gives a new segment its O_DIRECT channel, unless durable writes go through the page cache. */
  void openDirect(Segment seg) throws IOException {
    if (directAppender != null && directRefused == null) {
      seg.direct = directAppender.open(seg.path);
    }
  }

  /** The block boundary at or after {@code offset}, where a direct write starts. */
  long align(long offset) {
    return directAppender.align(offset);
  }

  /** One gathering write through the page cache; call with the append lock held. */
  static void buffered(Segment seg, long start, long end, List<ByteBuf> values) throws IOException {
    try {
      seg.io(ch -> {
        List<ByteBuffer> parts = new ArrayList<>(values.size());
        for (ByteBuf v : values) {
          java.util.Collections.addAll(parts, v.nioBuffers(v.readerIndex(), v.readableBytes()));
        }
        ByteBuffer[] bufs = parts.toArray(new ByteBuffer[0]);
        // only appends (under this lock) use the channel's position; reads are positional
        ch.position(start);
        while (ch.position() < end) {
          ch.write(bufs);
        }
        return null;
      });
    } catch (IOException e) {
      try {
        seg.io(ch -> ch.truncate(start));
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * {@link #direct}, or -1 (nothing written) if the file system refuses the write though it
   * took the probe: the log then writes through the page cache from now on.
   */
  long directUnlessRefused(Segment seg, long start, List<ByteBuf> values) throws IOException {
    try {
      return direct(seg, start, values);
    } catch (IOException e) {
      if (e.getMessage() == null || !e.getMessage().contains("Invalid argument")) {
        throw e;
      }
      directRefused = e.getMessage();
      closeDirect(seg);
      LoggerFactory.getLogger(SegmentAppends.class)
          .warn("the file system refused a direct write ({}): durable writes go through the page cache from now on", e.getMessage());
      return -1;
    }
  }

  /**
   * The values from {@code start} (a block boundary) through the segment's O_DIRECT channel, padded
   * to the next boundary; returns the padded end. Call with the append lock held. On failure the
   * file is cut back to the segment's size before the call.
   */
  private long direct(Segment seg, long start, List<ByteBuf> values) throws IOException {
    long before = seg.size;
    try {
      return directAppender.write(seg.direct, start, values);
    } catch (IOException e) {
      if (e instanceof java.nio.channels.ClosedByInterruptException) {
        // the interrupt closed the direct channel: open it again for the next append
        try {
          seg.direct = directAppender.open(seg.path);
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
          seg.direct = null; // the next appends go through the page cache
        }
      }
      try {
        seg.io(ch -> ch.truncate(before));
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** How durable appends reach the disk, for the peer's log. */
  String mode() {
    if (directRefused != null) {
      return "through the page cache (a direct write was refused: " + directRefused + ")";
    }
    return directAppender == null
        ? "through the page cache (the file system refuses O_DIRECT, or direct I/O is turned off)"
        : "direct I/O (O_DIRECT, " + directAppender.blockSize() + "-byte blocks)";
  }

  /** Closes the segment's O_DIRECT channel, if it has one: its later appends go through the page cache. */
  static void closeDirect(Segment seg) {
    FileChannel d = seg.direct;
    seg.direct = null;
    if (d != null) {
      try {
        d.close();
      } catch (IOException e) {
        // every write through it has returned; syncs use the other channel
      }
    }
  }

}
