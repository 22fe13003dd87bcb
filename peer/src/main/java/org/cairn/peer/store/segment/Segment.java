package org.cairn.peer.store.segment;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One segment file of a {@link SegmentLog}: its channels, its size, how much of it is durable, and
 * the lock deletion takes against readers.
 */
final class Segment {
  /** One I/O call on a segment's channel. */
  interface ChannelOp<T> {
    T apply(FileChannel ch) throws IOException;
  }

  final int id;
  final Path path;
  /** Replaced when an interrupted thread's I/O closed it (FileChannel I/O is interruptible). */
  volatile FileChannel channel;
  /** The active segment's O_DIRECT channel (null when buffered, or once rolled); used under the append lock. */
  FileChannel direct;
  /** Bytes written (appends reserve ranges under the append lock). */
  volatile long size;
  /** Bytes known durable. */
  long synced;
  final Object syncLock = new Object();
  /** Readers share it; deletion takes it exclusively. */
  final ReentrantReadWriteLock deleteLock = new ReentrantReadWriteLock();
  boolean deleted;

  Segment(int id, Path path, FileChannel channel, long size) {
    this.id = id;
    this.path = path;
    this.channel = channel;
    this.size = size;
    this.synced = size;
  }

  /**
   * Runs the call; if the channel was closed under it because some thread doing I/O on it was
   * interrupted, opens the file again for everyone. The interrupted thread gets an
   * InterruptedIOException; any other thread retries once on the new channel.
   */
  <T> T io(ChannelOp<T> op) throws IOException {
    for (int attempt = 0; ; attempt++) {
      FileChannel ch = channel;
      try {
        return op.apply(ch);
      } catch (java.nio.channels.ClosedByInterruptException e) {
        reopen(ch);
        java.io.InterruptedIOException ie = new java.io.InterruptedIOException("interrupted during I/O on segment " + id);
        ie.initCause(e);
        throw ie;
      } catch (java.nio.channels.ClosedChannelException e) {
        if (deleted || attempt > 0 || !reopen(ch)) {
          throw e;
        }
      }
    }
  }

  /** Makes the segment durable up to {@code end}; one fdatasync serves every writer waiting meanwhile. */
  void syncTo(long end) throws IOException {
    synchronized (syncLock) {
      if (synced >= end) {
        return;
      }
      long target = size; // everything written so far, other writers' bytes included
      io(ch -> {
        ch.force(false);
        return null;
      });
      synced = Math.max(synced, target);
    }
  }

  /** Opens the file again unless someone already did, or it is gone; returns whether a usable channel is there. */
  synchronized boolean reopen(FileChannel broken) throws IOException {
    if (deleted || closing) {
      return false;
    }
    if (channel == broken) {
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    return true;
  }

  volatile boolean closing;
}
