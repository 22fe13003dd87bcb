package org.cairn.peer.store.segment;

import com.sun.nio.file.ExtendedOpenOption;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/*
 * Durable appends that bypass the page cache (O_DIRECT). A peer syncs every PUT before it answers
 * (pessimistic writes), so a buffered write buys nothing: the kernel copies the bytes into the page
 * cache, then writes them out at the fdatasync. A direct write hands the disk the bytes from an
 * aligned buffer of our own. On this VM that is 0.2 against 0.9-1.5 system CPU-s per GB for six
 * writers syncing 1 MiB writes (docs/benchmarks/journal.md, "The page cache and the JIT"), and on a donor's desktop it
 * keeps Cairn's pieces from pushing the owner's files out of the page cache.
 *
 * O_DIRECT wants the buffer's address, the file position and the length to be multiples of the
 * file system's block size: a batch is copied into one aligned staging buffer (user-space copies of
 * hot bytes, ~0.1 CPU-s per GB), starts at a block boundary and is padded with zeros to the next
 * one. The padding is dead space in the segment, like a failed write's bytes. Not thread-safe: the
 * segment log calls it under its append lock.
 */
final class DirectAppender {
  /** Staging buffer: batches larger than this are written in several calls. */
  private static final int STAGING = 2 << 20;

  private final int block;
  private final ByteBuffer staging;

  private DirectAppender(int block) {
    this.block = block;
    this.staging = ByteBuffer.allocateDirect(STAGING + block).alignedSlice(block);
  }

  /**
   * A direct appender for segments in {@code dir}, or null where the file system refuses O_DIRECT
   * (tmpfs, some network and overlay file systems): the log then writes through the page cache.
   * Tries it once on a scratch file. (The peer's config can turn direct I/O off: {@link SegmentLog#open}.)
   */
  static DirectAppender probe(Path dir) {
    Path probe = dir.resolve("direct-io.probe");
    try {
      int block = (int) Files.getFileStore(dir).getBlockSize();
      if (block <= 0 || block > 64 * 1024 || Integer.bitCount(block) != 1) {
        return null;
      }
      DirectAppender a = new DirectAppender(block);
      try (FileChannel ch = a.open(probe, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)) {
        a.staging.clear().limit(block);
        ch.write(a.staging, 0);
      }
      return a;
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    } finally {
      try {
        Files.deleteIfExists(probe);
      } catch (IOException e) {
        // a scratch file of one block; the next start tries again
      }
    }
  }

  int blockSize() {
    return block;
  }

  /** Opens a segment for direct writes. */
  FileChannel open(Path file, StandardOpenOption... extra) throws IOException {
    java.util.Set<java.nio.file.OpenOption> opts = new java.util.HashSet<>(List.of(extra));
    opts.add(StandardOpenOption.WRITE);
    opts.add(ExtendedOpenOption.DIRECT);
    return FileChannel.open(file, opts);
  }

  /** The first block boundary at or after {@code position}. */
  long align(long position) {
    return (position + block - 1) & -(long) block;
  }

  /**
   * Writes the values' readable bytes (their indices are not changed) one after another from
   * {@code start}, a block boundary, and zeros up to the next boundary; returns the end of the
   * padded range.
   */
  long write(FileChannel ch, long start, List<ByteBuf> values) throws IOException {
    if ((start & (block - 1)) != 0) {
      throw new IllegalArgumentException("direct write at " + start + ", not a multiple of " + block);
    }
    long pos = start;
    staging.clear();
    for (ByteBuf v : values) {
      int from = v.readerIndex();
      int left = v.readableBytes();
      while (left > 0) {
        int n = Math.min(left, staging.remaining());
        // views of n bytes (a composite's parts), copied without moving the value's indices
        for (ByteBuffer part : v.nioBuffers(from, n)) {
          staging.put(part);
        }
        from += n;
        left -= n;
        if (!staging.hasRemaining()) {
          pos = flush(ch, pos);
        }
      }
    }
    if (staging.position() > 0) {
      int padded = (int) align(staging.position());
      while (staging.position() < padded) {
        staging.put((byte) 0);
      }
      pos = flush(ch, pos);
    }
    return pos;
  }

  private long flush(FileChannel ch, long pos) throws IOException {
    staging.flip();
    while (staging.hasRemaining()) {
      pos += ch.write(staging, pos);
    }
    staging.clear();
    return pos;
  }
}
