package org.cairn.client.mount;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * One file being written into a node's directory: its bytes go to the store as they arrive, through
 * a bounded {@link BlockPipe}, and the version is committed only when the writer closes the file
 * ({@link #finish}); {@link #abort} (a writer that died, a failed write) ends the store without a
 * version. Writes are expected front to back, as cp, dd and checkpointers write: a block ahead of
 * the stored bytes is held (up to {@link #AHEAD_LIMIT}, then the gap is a hole of zeros, as a
 * sparse file reads); rewriting bytes already handed to the store is refused.
 */
final class StreamingWrite {
  /** Blocks (of up to the kernel's 128 KiB writes) waiting for the store: about 8 MiB. */
  static final int PIPE_BLOCKS = 64;
  /** Bytes written ahead of a gap that are held before the gap is taken for a hole. */
  static final long AHEAD_LIMIT = 16L << 20;
  private static final int ZEROS = 128 << 10;

  private final String node;
  private final String name;
  private final BlockPipe pipe = new BlockPipe(PIPE_BLOCKS);
  private final CompletableFuture<Long> stored;
  private final TreeMap<Long, byte[]> ahead = new TreeMap<>();
  private long aheadBytes;
  private long handed;
  private volatile long length;
  private boolean closed;

  StreamingWrite(MountGrid grid, String node, String name, long step, Executor executor) {
    this.node = node;
    this.name = name;
    this.stored = CompletableFuture.supplyAsync(() -> {
      try {
        return grid.store(pipe, node, step, false);
      } catch (IOException e) {
        throw new CompletionException(e);
      }
    }, executor);
  }

  String node() {
    return node;
  }

  String name() {
    return name;
  }

  /** The file's size as written so far (or as truncated up to). */
  long length() {
    return length;
  }

  synchronized void write(long offset, byte[] data) throws IOException {
    if (closed) {
      throw new IOException(name + " is closed: its version is being committed");
    }
    long end = offset + data.length;
    if (offset < handed) {
      throw new IOException(name + ": a write at " + offset + " rewrites bytes already stored (up to " + handed
          + "); the mount stores files written front to back");
    }
    Map.Entry<Long, byte[]> before = ahead.floorEntry(offset);
    Map.Entry<Long, byte[]> after = ahead.ceilingEntry(offset);
    if (before != null && before.getKey() + before.getValue().length > offset || after != null && after.getKey() < end) {
      throw new IOException(name + ": a write at " + offset + " overlaps bytes written before; the mount stores files written"
          + " front to back");
    }
    if (offset == handed) {
      hand(data);
      drain();
    } else {
      ahead.put(offset, data);
      aheadBytes += data.length;
      while (aheadBytes > AHEAD_LIMIT) {
        zeros(ahead.firstKey());
        drain();
      }
    }
    length = Math.max(length, end);
  }

  /** Sets the size: growing adds a hole at the end; shrinking below what was written is refused. */
  synchronized void truncate(long size) throws IOException {
    long written = ahead.isEmpty() ? handed : ahead.lastKey() + ahead.lastEntry().getValue().length;
    if (size < written) {
      throw new IOException(name + ": cannot shrink to " + size + " bytes what was written up to " + written);
    }
    length = size;
  }

  /** The writer closed the file: the rest goes to the store, and this returns the committed step. */
  long finish() throws IOException {
    synchronized (this) {
      if (!closed) {
        closed = true;
        while (!ahead.isEmpty()) {
          zeros(ahead.firstKey());
          drain();
        }
        zeros(length);
        if (!pipe.end(stored::isDone)) {
          throw failure();
        }
      }
    }
    try {
      return stored.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted waiting for the commit of " + name);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }

  /** Ends the store without a version. */
  void abort(String why) {
    synchronized (this) {
      closed = true;
    }
    pipe.fail(why);
  }

  /** Whether the store has ended (committed, failed or aborted). */
  boolean ended() {
    return stored.isDone();
  }

  private void hand(byte[] block) throws IOException {
    if (!pipe.put(block, stored::isDone)) {
      throw failure();
    }
    handed += block.length;
  }

  private void drain() throws IOException {
    while (!ahead.isEmpty() && ahead.firstKey() == handed) {
      byte[] b = ahead.pollFirstEntry().getValue();
      aheadBytes -= b.length;
      hand(b);
    }
  }

  private void zeros(long upTo) throws IOException {
    while (handed < upTo) {
      hand(new byte[(int) Math.min(ZEROS, upTo - handed)]);
    }
  }

  private IOException failure() {
    try {
      stored.join();
      return new IOException("the store of " + name + " ended before the file was closed");
    } catch (CompletionException e) {
      return new IOException("the store of " + name + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (java.util.concurrent.CancellationException e) {
      return new IOException("the store of " + name + " was cancelled");
    }
  }
}
