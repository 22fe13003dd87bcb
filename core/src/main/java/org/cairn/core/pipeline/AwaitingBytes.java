package org.cairn.core.pipeline;

/**
 * Bytes of pieces sent and not yet acknowledged in one store; the store's reader waits while they
 * are at or over the limit, so a slow acknowledgement bounds memory by bytes rather than by chunks.
 */
final class AwaitingBytes {
  private final long limit;
  private long bytes;

  AwaitingBytes(long limit) {
    this.limit = limit;
  }

  synchronized void add(long n) {
    bytes += n;
  }

  synchronized void release(long n) {
    bytes -= n;
    if (bytes < limit) {
      notifyAll();
    }
  }

  /** Returns once under the limit. */
  synchronized void waitBelowLimit() throws java.io.InterruptedIOException {
    while (bytes >= limit) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while pieces await acknowledgement");
      }
    }
  }
}
