package org.cairn.core.pipeline;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Worker pools of the pipelines: daemon threads with readable names, shut down with a bound. */
final class Pools {
  private Pools() {}

  static ExecutorService workers(String name, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  static void shutdown(ExecutorService pool) {
    pool.shutdownNow();
    try {
      if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("pipeline workers did not stop within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Default parallelism: one worker per core. */
  static int defaultThreads() {
    return Runtime.getRuntime().availableProcessors();
  }
}
