package org.cairn.client.store;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.api.catalog.PendingRequest;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.read.Tickets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names each new chunk to the tracker before its pieces are sent ({@code POST
 * /api/v1/stores/{session}/pending}), so the peers' inventory GC spares them until the commit, however
 * long the store takes; the answer carries the WRITE tickets the store's hosts ask for before they
 * take the chunk's pieces. Chunks that arrive while a call is out go together in the next call. The
 * tracker keeps sessions in memory: when an answer says it knows fewer chunks than were named (it
 * restarted), the whole list is named again. A store that names nothing new calls anyway once no
 * call has been answered for {@link #QUIET} ({@link #refresh}, every second), so a tracker that
 * restarted while no call was out hears the list within a few seconds, well inside its GC hold
 * (a store whose chunks were all named before the restart otherwise went unheard until its next
 * keep-alive, past a short hold: its first pieces were collected). A call the tracker does not answer is retried every
 * second for {@code patience} (a tracker restart pauses the store; the restarted tracker counts every
 * chunk as pending for its GC hold, 60 s by default); then the chunk's store fails. A refusal
 * (403, 400) fails at once.
 */
final class PendingChunks {
  private static final Logger LOG = LoggerFactory.getLogger(PendingChunks.class);

  private final TrackerClient tracker;
  private final PeerClient peers;
  private final Supplier<List<String>> hosts;
  private final String session;
  /** The app the store is for: the tracker binds the session to it. */
  private final String app;
  private final Executor io;
  private final Duration patience;
  private final List<ChunkId> queued = new ArrayList<>();
  /** Every chunk named so far (what a restarted tracker is told again). */
  private final List<ChunkId> named = new ArrayList<>();
  /** Each chunk's naming, by id: a chunk is named once however often it is registered (guarded by this). */
  private final java.util.Map<ChunkId, CompletableFuture<Void>> registered = new java.util.HashMap<>();
  private List<CompletableFuture<Void>> waiting = new ArrayList<>();
  private boolean calling;
  private volatile boolean warned;
  /** The last call failed: the tracker may be restarting and may forget what it was told. */
  private volatile boolean unsure;
  /** Longest silence before {@link #refresh} calls (the tracker may have restarted meanwhile). */
  static final java.time.Duration QUIET = java.time.Duration.ofSeconds(2);
  /**
   * How long a call waits for more chunks once one is registered with no call out, and the least
   * time between the starts of two calls (ClientTuning.nameLingerMillis). Chunks are registered when
   * their id is known, before they are coded, so the wait is mostly hidden.
   */
  private final long lingerNanos;
  /** When the last call started (System.nanoTime; long ago before the first). */
  private volatile long lastCallStart;
  /** When a call was last answered (System.nanoTime). */
  private volatile long lastAnswered = System.nanoTime();
  private final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();

  /**
   * @param hosts the peer ids the store may send pieces to (its slots and alternates)
   * @param app the app the store is for
   * @param linger the least time between the starts of two calls
   */
  PendingChunks(TrackerClient tracker, PeerClient peers, Supplier<List<String>> hosts, String session, String app, Executor io,
      Duration patience, Duration linger) {
    this.lingerNanos = linger.toNanos();
    this.lastCallStart = System.nanoTime() - lingerNanos;
    this.tracker = tracker;
    this.peers = peers;
    this.hosts = hosts;
    this.session = session;
    this.app = app;
    this.io = io;
    this.patience = patience;
  }

  String session() {
    return session;
  }

  /**
   * Completes once the tracker has named the chunk and its tickets are with the peer client; fails if
   * it would not. A chunk registered again gets its first registration's future.
   */
  CompletableFuture<Void> register(ChunkId id) {
    CompletableFuture<Void> done;
    synchronized (this) {
      CompletableFuture<Void> earlier = registered.get(id);
      if (earlier != null) {
        return earlier; // named (or being named) already
      }
      done = new CompletableFuture<>();
      registered.put(id, done);
      queued.add(id);
      waiting.add(done);
      if (calling) {
        return done;
      }
      calling = true;
    }
    io.execute(this::drain);
    return done;
  }

  /**
   * Calls again (every second, from the store's scheduler) after a failed call, or once no call has
   * been answered for {@link #QUIET}: the session stays open while the store names nothing new (the
   * tracker drops it after 2 min of silence), and a restarted tracker is told the whole list within
   * seconds of coming back, well inside its GC hold.
   */
  void refresh() {
    if (unsure || System.nanoTime() - lastAnswered > QUIET.toNanos()) {
      try {
        call(List.of());
      } catch (IOException | RuntimeException e) {
        failed(e);
      }
    }
  }

  /** Ends the session when the store gives up (after a commit the tracker ends it itself). */
  void abandon() {
    try {
      tracker.abandon(session);
    } catch (IOException | RuntimeException e) {
      LOG.debug("could not end store session {}: {}", session, e.getMessage());
    }
  }

  private void drain() {
    long lastCall = lastCallStart;
    while (true) {
      // calls start at least the linger apart: the chunks identified meanwhile go in the same call (the first
      // call goes at once: a store's first chunk, or a catalog record's only one, waited 20 ms for nothing)
      long wait = lastCall + lingerNanos - System.nanoTime();
      if (wait > 0) {
        try {
          Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      lastCall = System.nanoTime();
      lastCallStart = lastCall;
      List<ChunkId> ids;
      List<CompletableFuture<Void>> done;
      synchronized (this) {
        if (queued.isEmpty()) {
          calling = false;
          return;
        }
        ids = new ArrayList<>(queued);
        queued.clear();
        named.addAll(ids);
        done = waiting;
        waiting = new ArrayList<>();
      }
      IOException failure = callPatiently(ids);
      for (CompletableFuture<Void> f : done) {
        if (failure == null) {
          f.complete(null);
        } else {
          f.completeExceptionally(failure);
        }
      }
    }
  }

  private IOException callPatiently(List<ChunkId> ids) {
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      try {
        call(ids);
        return null;
      } catch (TrackerHttp.TrackerException e) {
        return new IOException("the tracker refused to name this store's chunks: " + e.getMessage(), e);
      } catch (IOException | RuntimeException e) {
        failed(e);
        if (System.nanoTime() > deadline) {
          return new IOException("the tracker did not answer for " + patience.toSeconds() + " s (" + e.getMessage()
              + "); without its tickets no peer takes this store's pieces", e);
        }
        try {
          Thread.sleep(1000); // the tracker is away (restarting?): try again in a second
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return new IOException("interrupted while waiting for the tracker", ie);
        }
      }
    }
  }

  private void call(List<ChunkId> ids) throws IOException {
    int known = post(ids);
    List<ChunkId> all;
    synchronized (this) {
      all = known < named.size() ? new ArrayList<>(named) : null;
    }
    if (all != null) {
      LOG.info("the tracker knew {} of this store's {} chunks (it restarted?); naming them again", known, all.size());
      post(all);
    }
    lastAnswered = System.nanoTime();
    if (unsure) {
      unsure = false;
      LOG.info("the tracker is reachable again; it knows every chunk of this store");
    }
  }

  private void failed(Exception e) {
    unsure = true;
    if (!warned) {
      warned = true;
      LOG.warn("could not reach the tracker to name this store's chunks ({}); trying again every second", e.getMessage());
    }
  }

  /** Calls made so far (each names the chunks queued meanwhile). */
  int calls() {
    return calls.get();
  }

  private int post(List<ChunkId> ids) throws IOException {
    calls.incrementAndGet();
    PendingRequest.Answer a = tracker.pending(session, app, ids, ids.isEmpty() ? List.of() : hosts.get());
    Tickets.present(peers, a.tickets());
    return a.pending();
  }
}
