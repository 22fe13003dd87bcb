package org.cairn.core.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.read.ChunkReader.Mode;

/** One chunk's read for a {@link ChunkReader}; its state is guarded by its own lock, requests go out without it. */
final class ChunkRead {
  private final ChunkReader reader;
  private final LocatedChunk chunk;
  private final ChunkId id;
  private final Fragment[] got;
  /** Pieces asked a second time after their connection failed. */
  private final boolean[] retried;
  private final List<Integer> order = new ArrayList<>();
  /** Where holders the tracker lists DOWN start in {@link #order}: hedges stop before them. */
  private int downFrom;
  private final List<String> problems = new ArrayList<>();
  /** The caller's future; dropped once completed, so that answers still out do not keep the pieces alive. */
  private CompletableFuture<Pieces> done = new CompletableFuture<>();
  private final long start = System.nanoTime();
  private int next;
  private int outstanding;
  private int good;
  private int asked;
  private int needed;
  private ScheduledFuture<?> deadline;
  /** Set (under the lock) when the read is over. */
  private boolean over;
  /** What the read gave, until it is handed to the caller's future (outside the lock). */
  private Pieces result;

  ChunkRead(ChunkReader reader, LocatedChunk chunk) {
    this.reader = reader;
    this.chunk = chunk;
    this.id = chunk.chunkId();
    this.got = new Fragment[chunk.pieces()];
    this.retried = new boolean[chunk.pieces()];
    this.needed = chunk.needed();
  }

  CompletableFuture<Pieces> start() {
    CompletableFuture<Pieces> future = done;
    List<Integer> idle = new ArrayList<>();
    List<Integer> backlogged = new ArrayList<>();
    List<Integer> down = new ArrayList<>();
    for (int i = 0; i < got.length; i++) {
      LocatedChunk.Holder h = chunk.holder(i);
      if (h == null) {
        problems.add("piece " + i + ": no holder");
      } else if (!ChunkReader.validTag(h.tag())) {
        problems.add("piece " + i + ": no valid tag in the index");
      } else if (!h.live()) {
        problems.add("piece " + i + ": holder " + h.id() + " is " + h.state());
        if (h.address() != null && !reader.unreachableDown.contains(h.address())) {
          down.add(i); // a last resort: the tracker's DOWN may be a holder that has just come back
          retried[i] = true; // and a refused connection is its answer, not asked twice
        }
      } else {
        (reader.mode == Mode.ALL && reader.backlog(h.address()).get() >= ChunkReader.MAX_BACKLOG ? backlogged : idle).add(i);
      }
    }
    // unloaded holders first (FALCON: a LOADED or BUSY host serves slowly), data pieces first among equals
    Comparator<Integer> byState = Comparator.comparingInt(i -> chunk.holder(i).state().code());
    if (reader.mode == Mode.HEDGED) {
      idle.sort(byState.thenComparingLong(i -> reader.holderNanos.getOrDefault(chunk.holder(i).address(), 0L)));
    } else if (reader.mode == Mode.FIRST_M) {
      idle.sort(byState);
    }
    order.addAll(idle);
    order.addAll(backlogged);
    downFrom = order.size();
    order.addAll(down);
    if (needed == 0) {
      problems.add("the index has no coding for this chunk");
    }
    int first;
    switch (reader.mode) {
      case EVERY:
        first = downFrom > 0 ? downFrom : order.size();
        break;
      case ALL:
        first = idle.size() >= Math.max(1, needed) ? idle.size() : downFrom;
        first = first >= Math.max(1, needed) ? first : order.size();
        break;
      default:
        first = Math.min(order.size(), Math.max(1, needed));
        break;
    }
    List<Integer> toAsk = new ArrayList<>();
    synchronized (this) {
      for (int j = 0; j < first; j++) {
        toAsk.add(order.get(next++));
      }
      outstanding = toAsk.size();
      asked = outstanding;
      if (outstanding == 0) {
        finish();
      } else {
        long ms = Math.max(1, reader.timeout.toMillis());
        deadline = reader.timer.schedule(this::timedOut, ms, TimeUnit.MILLISECONDS);
      }
    }
    if (!complete()) {
      for (int i : toAsk) {
        ask(i);
      }
    }
    return future;
  }

  private void ask(int i) {
    LocatedChunk.Holder h = chunk.holder(i);
    FragmentKey key = new FragmentKey(id, i, FragmentKey.parseTag(h.tag()));
    AtomicInteger backlog = reader.backlog(h.address());
    backlog.incrementAndGet();
    long askedAt = System.nanoTime();
    CompletableFuture<PieceReply> reply;
    try {
      reply = reader.source.get(h, key);
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    reply.whenComplete((r, error) -> {
      backlog.decrementAndGet();
      if (error != null && !h.live()) {
        reader.unreachableDown.add(h.address()); // really down: the rest of this command's reads skip it
      }
      if (r instanceof PieceReply.Found) {
        reader.holderNanos.merge(h.address(), System.nanoTime() - askedAt, (old, now) -> (old * 3 + now) / 4);
      }
      answered(i, h, key, r, error);
    });
  }

  private void answered(int i, LocatedChunk.Holder h, FragmentKey key, PieceReply reply, Throwable error) {
    List<Integer> toAsk = new ArrayList<>();
    boolean hedge = false;
    boolean again = false;
    synchronized (this) {
      if (over) {
        return; // decoded or given up: a late answer is dropped
      }
      outstanding--;
      Throwable e = error != null && error.getCause() != null && error instanceof java.util.concurrent.CompletionException
          ? error.getCause() : error;
      if (e instanceof org.cairn.core.net.ConnectionLostException && !retried[i]) {
        // the connection failed or closed under the request (not the peer's answer): ask again once, on a
        // new connection, before counting the holder out
        retried[i] = true;
        outstanding++;
        again = true;
      } else if (error != null) {
        problems.add("piece " + i + " from " + h.id() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      } else if (reply instanceof PieceReply.Found found) {
        Fragment f = found.fragment();
        if (f.dataFragments() != needed) {
          // the piece's header is verified; an index entry that disagrees is stale
          if (needed != 0) {
            problems.add("piece " + i + " says m=" + f.dataFragments() + ", the index " + chunk.redundancy());
          }
          needed = f.dataFragments();
        }
        got[i] = f;
        good++;
        hedge = reader.mode == Mode.HEDGED && good < needed;
      } else if (reply instanceof PieceReply.Missing missing) {
        problems.add("piece " + i + " on " + h.id() + ": " + missing.reason());
        reader.bad.add(h.id(), key, missing.reason().startsWith("corrupt") ? missing.reason() : "not held (" + missing.reason() + ")");
      } else if (reply instanceof PieceReply.Corrupt corrupt) {
        problems.add("piece " + i + " from " + h.id() + " is corrupt: " + corrupt.reason());
        reader.bad.add(h.id(), key, "corrupt on arrival: " + corrupt.reason());
      } else {
        problems.add("piece " + i + " from " + h.id() + ": " + ((PieceReply.Failed) reply).reason());
      }
      if (reader.mode == Mode.EVERY) {
        if (outstanding == 0 && good < Math.max(1, needed) && next < order.size()) {
          while (next < order.size()) { // every live holder answered, too few pieces: the ones listed DOWN
            toAsk.add(order.get(next++));
            outstanding++;
            asked++;
          }
        } else if (outstanding == 0) {
          finish();
        }
      } else if (needed > 0 && good >= needed) {
        finish();
      } else {
        while (outstanding + good < Math.max(1, needed) && next < order.size()) {
          toAsk.add(order.get(next++));
          outstanding++;
          asked++;
        }
        if (outstanding == 0) {
          finish();
        }
      }
    }
    if (complete()) {
      return;
    }
    if (again) {
      ask(i);
    }
    for (int j : toAsk) {
      ask(j);
    }
    if (hedge) {
      hedge(good(), System.nanoTime() - start);
    }
  }

  private synchronized int good() {
    return good;
  }

  /** After a piece arrived: if no further piece follows in time, ask one more holder (and so on). */
  private void hedge(int seen, long elapsed) {
    long delay = Math.max(TimeUnit.MILLISECONDS.toNanos(10), ChunkReader.HEDGE_FACTOR * elapsed);
    reader.timer.schedule(() -> {
      int another = -1;
      synchronized (this) {
        if (!over && good == seen && next < downFrom) {
          another = order.get(next++);
          outstanding++;
          asked++;
        }
      }
      if (another >= 0) {
        ask(another);
        hedge(seen, elapsed + delay);
      }
    }, delay, TimeUnit.NANOSECONDS);
  }

  private void timedOut() {
    synchronized (this) {
      if (!over) {
        problems.add(outstanding + " holders did not answer within " + reader.timeout.toMillis() + " ms");
        finish();
      }
    }
    complete();
  }

  /** Ends the read with what is in hand; must hold the lock. */
  private void finish() {
    if (deadline != null) {
      deadline.cancel(false);
    }
    Fragment[] copy = got.clone(); // later answers cannot change the caller's copy
    Arrays.fill(got, null); // and requests still out do not keep these pieces alive
    result = new Pieces(id, needed, copy, good, asked, List.copyOf(problems));
    over = true;
  }

  /** Completes the future once the read is over (outside the lock: callers' stages run here). */
  private boolean complete() {
    Pieces r;
    CompletableFuture<Pieces> f;
    synchronized (this) {
      if (!over) {
        return false;
      }
      r = result;
      f = done;
      result = null;
      done = null;
    }
    if (f != null) {
      f.complete(r);
    }
    return true;
  }
}
