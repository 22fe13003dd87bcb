package org.cairn.client.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.PutReply;

/*
 * Sends the pieces of one store, piece i of every chunk to the host currently in slot i, batching per
 * slot. At most ClientTuning.putsInFlight PUTs per slot are outstanding; pieces that arrive meanwhile
 * queue and leave together in the next PUT (up to batchBytes), so a host that takes long to fsync
 * receives larger batches, one fsync each, instead of a queue of small ones: group commit driven from
 * the client. A slot also lingers (lingerMillis, as Kafka's linger.ms): a piece waits until its slot
 * has lingerBytes queued or it has waited that long, so a checkpoint of small compressed pieces (a
 * successor's: ~20 KB each) reaches a donor in a few PUTs, not one PUT and two syncs per piece
 * (measured: 50 KB per durable write without it). A store ends at most the linger later.
 *
 * Each PUT goes through the peer client's typed put (PeerClient.put), whose PutReply is the one
 * decoding of a peer's answer: Stored or SoftStored acknowledge the batch; Refused or Failed (or no
 * answer) send the batch whole to the slot's replacement (only the pieces that were not acknowledged:
 * FALCON §3.3 step 6). When no alternate is left the slot fails, and every piece queued or sent to it
 * fails the store.
 *
 * For the passive bandwidth measurement (FALCON §3.2.2) each slot counts, per host, the bytes
 * acknowledged and the time during which at least one PUT was outstanding, so overlapping PUTs
 * are not counted twice.
 */
final class PieceWriter {
  /** Where a batch goes: {@code PeerClient::put} (a test's fake answers without a peer). */
  @FunctionalInterface
  interface Puts {
    /** Sends {@code batch} (owned by the call) to {@code address} as a PUT, or as a PUT_SOFT when {@code soft}. */
    CompletableFuture<PutReply> put(String address, ByteBuf batch, boolean soft);
  }

  private final HostSet hosts;
  private final Puts puts;
  private final Executor io;
  /** Wakes lingering slots (does no I/O itself: the PUTs go to each store's io executor); shared by the process's stores. */
  private static final java.util.concurrent.ScheduledExecutorService TIMER = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "cairn-linger");
    t.setDaemon(true);
    return t;
  });
  private final int maxBatchBytes;
  private final int putsInFlight;
  private final long lingerNanos;
  private final long lingerBytes;
  private final Slot[] slots;
  /** Set once the store has handed over its last chunk: pieces no longer linger (nothing more comes to batch with them). */
  private volatile boolean flushing;
  private final HostTraffic traffic = new HostTraffic();
  private final boolean soft;
  private final SoftHolds softHolds = new SoftHolds();

  /**
   * @param puts sends a batch to a host (the peer client's typed put)
   * @param io runs resends and replacements, which may block, away from the event loop
   * @param tuning the batch size, PUTs in flight per slot and linger
   * @param soft pieces go as PUT_SOFT: acknowledged before they are durable
   */
  PieceWriter(HostSet hosts, Puts puts, Executor io, ClientTuning tuning, boolean soft) {
    this.soft = soft;
    this.hosts = hosts;
    this.puts = puts;
    this.io = io;
    this.maxBatchBytes = tuning.batchBytes();
    this.putsInFlight = tuning.putsInFlight();
    this.lingerNanos = TimeUnit.MILLISECONDS.toNanos(tuning.lingerMillis());
    this.lingerBytes = tuning.lingerBytes();
    this.slots = new Slot[hosts.size()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Slot(i);
    }
  }

  /**
   * The store has handed over its last chunk's pieces: what is queued goes now, and what comes later goes without
   * lingering (the store's last pieces, and its catalog record's, waited the linger for pieces that would not come).
   */
  void noMoreLinger() {
    flushing = true;
    for (Slot s : slots) {
      s.sendQueued();
    }
  }

  /** Queues piece {@code f} for slot {@code slot}; the future completes with the id of the host that acknowledged it durable. */
  CompletableFuture<String> send(int slot, Fragment f) {
    return slots[slot].add(f);
  }

  /** What the hosts said of this store's soft writes: when each host's pieces are durable. */
  List<org.cairn.core.api.catalog.CommitRequest.SoftHold> softHolds() {
    return softHolds.all();
  }

  /** A copy of the traffic counted so far, per host. */
  Map<String, HostTraffic.Traffic> traffic() {
    return traffic.snapshot();
  }

  private record Piece(Fragment fragment, CompletableFuture<String> done, long queuedAt) {}

  private final class Slot {
    private final int index;
    private final ArrayDeque<Piece> queue = new ArrayDeque<>();
    private int inFlight;
    private long queuedBytes;
    private boolean timerSet;
    private long busySince;
    private IOException failed;

    Slot(int index) {
      this.index = index;
    }

    CompletableFuture<String> add(Fragment f) {
      CompletableFuture<String> done = new CompletableFuture<>();
      List<Piece> batch;
      synchronized (this) {
        if (failed != null) {
          done.completeExceptionally(failed);
          return done;
        }
        queue.add(new Piece(f, done, System.nanoTime()));
        queuedBytes += f.serializedSize();
        batch = nextBatch();
      }
      if (batch != null) {
        put(hosts.slot(index), batch);
      }
      return done;
    }

    /** Sends what lingered its time (on the timer's thread: the PUT itself goes to the io executor). */
    private void lingered() {
      synchronized (this) {
        timerSet = false;
      }
      sendQueued();
    }

    /** Sends the next batch if a PUT may start (on the io executor). */
    private void sendQueued() {
      List<Piece> batch;
      synchronized (this) {
        batch = nextBatch();
      }
      if (batch != null) {
        try {
          io.execute(() -> put(hosts.slot(index), batch));
        } catch (java.util.concurrent.RejectedExecutionException e) {
          fail(batch, new IOException("the store ended before its pieces were sent", e)); // it failed meanwhile
        }
      }
    }

    /**
     * Takes the next batch if a PUT may start now and the queue has lingered enough (else arms the
     * timer for its oldest piece); must hold the lock.
     */
    private List<Piece> nextBatch() {
      if (inFlight >= putsInFlight || queue.isEmpty()) {
        return null;
      }
      long waited = System.nanoTime() - queue.peek().queuedAt();
      if (!flushing && queuedBytes < lingerBytes && waited < lingerNanos) {
        if (!timerSet) {
          TIMER.schedule(this::lingered, lingerNanos - waited, TimeUnit.NANOSECONDS);
          timerSet = true;
        }
        return null;
      }
      List<Piece> batch = new ArrayList<>();
      long bytes = 0;
      while (!queue.isEmpty() && batch.size() < FragmentBatch.MAX_FRAGMENTS
          && (batch.isEmpty() || bytes + queue.peek().fragment().serializedSize() <= maxBatchBytes)) {
        Piece p = queue.poll();
        bytes += p.fragment().serializedSize();
        queuedBytes -= p.fragment().serializedSize();
        batch.add(p);
      }
      if (inFlight++ == 0) {
        busySince = System.nanoTime();
      }
      return batch;
    }

    /** Sends a batch to host h; called with the slot's PUT already counted in flight. */
    private void put(HostSet.Host h, List<Piece> batch) {
      CompletableFuture<PutReply> answer;
      try {
        // pooled and direct: the frame encoder passes it to the socket without another copy
        ByteBuf payload = ByteBufAllocator.DEFAULT.directBuffer(encodedSize(batch));
        try {
          FragmentBatch.encodeFragments(batch.stream().map(Piece::fragment).toList(), payload);
        } catch (RuntimeException e) {
          payload.release();
          throw e;
        }
        answer = puts.put(h.address(), payload, soft);
      } catch (RuntimeException e) {
        answer = CompletableFuture.failedFuture(e);
      }
      answer.whenComplete((reply, error) -> done(h, batch, error != null ? "failed: " + unwrap(error).getMessage() : failure(h, reply)));
    }

    /** Acknowledged (null: a soft acknowledgement is recorded), or why {@code h} did not take the batch. */
    private String failure(HostSet.Host h, PutReply reply) {
      if (reply instanceof PutReply.Stored) {
        return null;
      }
      if (reply instanceof PutReply.SoftStored stored) {
        softHolds.ack(h.id(), stored.ack());
        return null;
      }
      if (reply instanceof PutReply.Refused refused) {
        return "refused the pieces (" + refused.reason() + ")";
      }
      return "answered " + ((PutReply.Failed) reply).reason();
    }

    /** A batch's PUT ended: acknowledged ({@code failure} null) or to be resent to the slot's replacement. */
    private void done(HostSet.Host h, List<Piece> batch, String failure) {
      if (failure == null) {
        long bytes = 0;
        for (Piece p : batch) {
          bytes += p.fragment().serializedSize();
        }
        List<Piece> next;
        long busy = 0;
        synchronized (this) {
          if (--inFlight == 0) {
            busy = System.nanoTime() - busySince;
          } else {
            // credit the time so far and go on measuring from now
            long now = System.nanoTime();
            busy = now - busySince;
            busySince = now;
          }
          next = nextBatch();
        }
        traffic.count(h.id(), bytes, busy);
        for (Piece p : batch) {
          p.done().complete(h.id());
        }
        if (next != null) {
          List<Piece> b = next;
          io.execute(() -> put(hosts.slot(index), b));
        }
        return;
      }
      // replace the host (blocking bookkeeping) away from the event loop
      String why = failure;
      io.execute(() -> {
        HostSet.Host replacement;
        try {
          replacement = hosts.replace(index, h, why);
        } catch (IOException e) {
          fail(batch, e);
          return;
        }
        put(replacement, batch);
      });
    }

    private void fail(List<Piece> batch, IOException e) {
      List<Piece> dropped;
      synchronized (this) {
        failed = e;
        inFlight--;
        dropped = new ArrayList<>(queue);
        queue.clear();
        queuedBytes = 0;
      }
      for (Piece p : batch) {
        p.done().completeExceptionally(e);
      }
      for (Piece p : dropped) {
        p.done().completeExceptionally(e);
      }
    }
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  private static int encodedSize(List<Piece> batch) {
    int n = 2;
    for (Piece p : batch) {
      n += 4 + p.fragment().serializedSize();
    }
    return n;
  }
}
