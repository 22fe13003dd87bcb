package org.cairn.core.pipeline;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * A bounded set of equal-sized buffers: {@link #take} reuses a returned buffer or makes a new one
 * while fewer than {@code capacity} exist. Callers bound what they hold (the pipeline's window), so
 * at most {@code capacity} buffers are ever allocated. Thread-safe.
 */
final class BufferPool {
  private final int size;
  private final ArrayBlockingQueue<byte[]> free;

  BufferPool(int size, int capacity) {
    this.size = size;
    this.free = new ArrayBlockingQueue<>(capacity);
  }

  byte[] take() {
    byte[] b = free.poll();
    return b != null ? b : new byte[size];
  }

  /** Returns a buffer; beyond capacity it is left to the garbage collector. */
  void give(byte[] buffer) {
    if (buffer.length == size) {
      free.offer(buffer);
    }
  }
}
