package org.cairn.core.pipeline;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Runs tasks on a pool with at most {@code window} in flight and hands their results to a
 * handler in submission order: the bounded-memory, order-preserving stage of both pipelines.
 * Not thread-safe: one thread submits and drains.
 */
final class OrderedWindow<R> {
  /** Consumes one result, in order. */
  interface Handler<R> {
    void accept(R result) throws IOException;
  }

  private final ExecutorService pool;
  private final int window;
  private final Handler<R> handler;
  private final ArrayDeque<Future<R>> inFlight = new ArrayDeque<>();

  OrderedWindow(ExecutorService pool, int window, Handler<R> handler) {
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1, was " + window);
    }
    this.pool = pool;
    this.window = window;
    this.handler = handler;
  }

  /** Submits a task, first waiting for (and handling) the oldest one if the window is full. */
  void submit(Callable<R> task) throws IOException {
    while (inFlight.size() >= window) {
      completeOldest();
    }
    inFlight.addLast(pool.submit(task));
  }

  /**
   * Adds a result that completes later (a task whose last step is asynchronous, e.g. a network
   * acknowledgement), first waiting for the oldest one if the window is full; it still counts
   * against the window until it completes.
   */
  void submitFuture(java.util.function.Supplier<? extends Future<R>> start) throws IOException {
    while (inFlight.size() >= window || !inFlight.isEmpty() && inFlight.peekFirst().isDone()) {
      completeOldest(); // results already in are handled at once (a failure stops the store early)
    }
    inFlight.addLast(start.get()); // started only once it has a place in the window
  }

  /** Waits for and handles every task in flight. */
  void drain() throws IOException {
    while (!inFlight.isEmpty()) {
      completeOldest();
    }
  }

  /** Cancels whatever is still in flight (after a failure). */
  void cancel() {
    for (Future<R> f : inFlight) {
      f.cancel(true);
    }
    inFlight.clear();
  }

  private void completeOldest() throws IOException {
    Future<R> f = inFlight.removeFirst();
    R result;
    try {
      result = f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a chunk");
    } catch (CancellationException e) {
      throw new InterruptedIOException("chunk task cancelled");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof UncheckedIOException) {
        throw ((UncheckedIOException) cause).getCause();
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IOException(cause);
    }
    handler.accept(result);
  }
}
