package org.cairn.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.hash.ChunkId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names each new chunk to the tracker before its pieces are sent ({@code POST
 * /api/v1/stores/{session}/pending}), so the peers' inventory GC spares them until the commit, however
 * long the store takes. Chunks that arrive while a call is out go together in the next call. The
 * tracker keeps sessions in memory: when an answer says it knows fewer chunks than were named (it
 * restarted), the whole list is named again. A call that fails is logged, the pieces are sent
 * anyway and the call is retried every second: a restarted tracker counts every chunk as pending
 * for its GC hold (60 s by default), and is told the whole list well within it. A tracker that stays
 * unreachable fails the commit.
 */
final class PendingChunks {
  private static final Logger LOG = LoggerFactory.getLogger(PendingChunks.class);

  private final TrackerClient tracker;
  private final String session;
  private final Executor io;
  private final List<ChunkId> queued = new ArrayList<>();
  /** Every chunk named so far (what a restarted tracker is told again). */
  private final List<ChunkId> named = new ArrayList<>();
  private List<CompletableFuture<Void>> waiting = new ArrayList<>();
  private boolean calling;
  private volatile boolean warned;
  /** The last call failed: the tracker may be restarting and may forget what it was told. */
  private volatile boolean unsure;

  PendingChunks(TrackerClient tracker, String session, Executor io) {
    this.tracker = tracker;
    this.session = session;
    this.io = io;
  }

  String session() {
    return session;
  }

  /** Completes once the tracker has been told of the chunk (or telling it failed). */
  CompletableFuture<Void> register(ChunkId id) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    synchronized (this) {
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

  /** Keeps the session open while the store runs without new chunks (the tracker drops it after 2 min of silence). */
  void keepAlive() {
    call(List.of());
  }

  /**
   * After a failed call, calls again (every second, from the store's scheduler), so a restarted
   * tracker is told the whole list within a second of coming back, well inside its GC hold.
   */
  void retryIfFailed() {
    if (unsure) {
      call(List.of());
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
    while (true) {
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
      call(ids);
      done.forEach(f -> f.complete(null));
    }
  }

  private void call(List<ChunkId> ids) {
    try {
      int known = post(ids);
      List<ChunkId> all;
      synchronized (this) {
        all = known < named.size() ? new ArrayList<>(named) : null;
      }
      if (all != null) {
        LOG.info("the tracker knew {} of this store's {} chunks (it restarted?); naming them again", known, all.size());
        post(all);
      }
      if (unsure) {
        unsure = false;
        LOG.info("the tracker is reachable again; it knows every chunk of this store");
      }
    } catch (IOException | RuntimeException e) {
      unsure = true;
      if (!warned) {
        warned = true;
        LOG.warn("could not tell the tracker which chunks this store is sending ({}); their pieces are protected from "
            + "garbage collection by the peers' grace period only until the commit", e.getMessage());
      }
    }
  }

  private int post(List<ChunkId> ids) throws IOException {
    return tracker.pending(session, ids);
  }
}
