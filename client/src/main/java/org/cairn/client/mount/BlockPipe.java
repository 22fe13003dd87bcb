package org.cairn.client.mount;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The bounded hand-over between the file system's write calls and the store reading the image:
 * at most {@code blocks} blocks wait, so a writer faster than the grid is held back (stdchk's
 * sliding-window write) and memory stays bounded. {@link #fail} makes the reader's next read throw,
 * so the store ends without committing.
 */
final class BlockPipe extends InputStream {
  private static final byte[] END = new byte[0];

  private final BlockingQueue<byte[]> queue;
  private volatile String failure;
  private byte[] current;
  private int pos;
  private boolean ended;

  BlockPipe(int blocks) {
    queue = new ArrayBlockingQueue<>(blocks);
  }

  /**
   * Hands over a block (not copied: the caller gives it up), waiting while the pipe is full;
   * false when {@code readerGone} became true first (the store ended early).
   */
  boolean put(byte[] block, BooleanSupplier readerGone) throws InterruptedIOException {
    try {
      while (!queue.offer(block, 100, TimeUnit.MILLISECONDS)) {
        if (readerGone.getAsBoolean()) {
          return false;
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted handing a block to the store");
    }
  }

  /** The writer is done: the reader sees the end once it has read every block. */
  boolean end(BooleanSupplier readerGone) throws InterruptedIOException {
    return put(END, readerGone);
  }

  /** The writer failed or died: the reader's next read throws with {@code why}. */
  void fail(String why) {
    failure = why;
    queue.clear();
    queue.offer(END);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (true) {
      if (failure != null) {
        throw new IOException(failure);
      }
      if (ended) {
        return -1;
      }
      if (current != null && pos < current.length) {
        int n = Math.min(len, current.length - pos);
        System.arraycopy(current, pos, b, off, n);
        pos += n;
        return n;
      }
      try {
        current = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the writer");
      }
      pos = 0;
      if (current == END) {
        if (failure != null) {
          throw new IOException(failure);
        }
        ended = true;
      }
    }
  }
}
