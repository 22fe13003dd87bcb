package org.cairn.client.bases;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.core.hash.ChunkId;

/**
 * Coded records for the host's {@link BaseCache} held in memory until the store that made them has
 * answered, then written on another thread: a resident agent answers a job without waiting for the
 * kernel's copies of the chunks into the host's cache (12 % of an agent's CPU for a DMTCP first
 * image). The cache finds held records as it finds written ones. At most {@link #budget} bytes are
 * held across the process's stores; past it a record is not taken ({@link Later#hold} says so) and the
 * caller writes it at once. The records of a store that fails are dropped: only a later miss.
 */
final class HeldRecords {
  /** A coded record not written yet: compression id, encryption id and chunk length; the coded payload. */
  record Held(byte[] meta, byte[] payload) {
    long bytes() {
      return meta.length + (long) payload.length;
    }
  }

  /** Writes one record to the packs. */
  @FunctionalInterface
  interface Sink {
    void write(ChunkId id, Held record);
  }

  private final Map<ChunkId, Held> held = new ConcurrentHashMap<>();
  private final AtomicLong bytes = new AtomicLong();
  private final long budget;
  private final Sink sink;

  HeldRecords(long budget, Sink sink) {
    this.budget = budget;
    this.sink = sink;
  }

  /** The held record of chunk {@code id}, or null. */
  Held get(ChunkId id) {
    return held.get(id);
  }

  boolean contains(ChunkId id) {
    return held.containsKey(id);
  }

  /** Bytes held now. */
  long bytes() {
    return bytes.get();
  }

  /** A store's share: what it holds until it has answered. */
  Later later() {
    return new Later();
  }

  private void release(ChunkId id, Held r) {
    if (held.remove(id, r)) {
      bytes.addAndGet(-r.bytes());
    }
  }

  /** One store's records, written when it has answered ({@link #writeOn}) or dropped if it failed. */
  final class Later {
    private final List<ChunkId> ids = new ArrayList<>();

    /** Holds {@code record} (true), or leaves it to the caller when the budget is spent (false). */
    synchronized boolean hold(ChunkId id, Held record) {
      long n = record.bytes();
      if (bytes.addAndGet(n) > budget) {
        bytes.addAndGet(-n);
        return false;
      }
      if (held.putIfAbsent(id, record) != null) {
        bytes.addAndGet(-n); // another store holds it already
        return true;
      }
      ids.add(id);
      return true;
    }

    private synchronized List<ChunkId> take() {
      List<ChunkId> taken = List.copyOf(ids);
      ids.clear();
      return taken;
    }

    /** Writes the held records on {@code executor} (here, if it refuses the task). */
    void writeOn(Executor executor) {
      List<ChunkId> taken = take();
      if (taken.isEmpty()) {
        return;
      }
      Runnable write = () -> {
        for (ChunkId id : taken) {
          Held r = held.get(id);
          if (r != null) {
            sink.write(id, r);
            release(id, r);
          }
        }
      };
      try {
        executor.execute(write);
      } catch (RejectedExecutionException e) {
        write.run();
      }
    }

    /** Forgets the held records without writing them. */
    void drop() {
      for (ChunkId id : take()) {
        Held r = held.get(id);
        if (r != null) {
          release(id, r);
        }
      }
    }
  }
}
