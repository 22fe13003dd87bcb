package org.cairn.core.pipeline;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Worker pools of the pipelines: daemon threads with readable names, carrying their command's context, shut down with a bound. */
final class Pools {
  private Pools() {}

  static ExecutorService workers(String name, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    // the threads start where work is handed in (perhaps an event loop) and carry the context of the pipeline's command
    return Executors.newFixedThreadPool(threads, org.cairn.core.log.CommandContext.threads(name));
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
