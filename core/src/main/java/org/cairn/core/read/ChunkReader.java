package org.cairn.core.read;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.LocatedChunk;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PieceReply;

/*
 * Reads one chunk's pieces from their holders (FALCON "Recover", §3.3) — the only place a piece is
 * read, shared by fetch, verify and repair so that they cannot disagree about what is restorable.
 *
 * m comes from the chunk's own coding (its index entry, then the verified header of the first piece
 * that arrives), never from a version that refers to it. Holders that are DOWN are not asked. Modes:
 *   ALL      every live holder at once, except one still answering MAX_BACKLOG earlier requests of
 *            this reader (its answer would come after the chunk is decoded); those are asked when
 *            others fail, or at once when fewer than m would be asked without them;
 *   FIRST_M  m holders (RUNNING before LOADED before BUSY, data pieces first among equals), one more
 *            for each that fails: the sequential baseline of FALCON Fig. 9 (repair reads this way);
 *   HEDGED   as FIRST_M, by state then fastest holders of this reader first, and one more holder whenever, after a
 *            piece arrived, none follows within HEDGE_FACTOR times the chunk's time so far;
 *   EVERY    every live holder, all answers awaited (verify --read-data).
 * In every mode the invariant is: while fewer than m pieces are in hand, pieces in hand plus answers
 * awaited stay at least m, as long as any live holder is left to ask. Pieces that arrive corrupt, and
 * pieces a holder says it does not hold, go to the BadPieceLog.
 */
public final class ChunkReader {
  /** How a chunk's pieces are asked for. */
  public enum Mode {
    ALL, FIRST_M, HEDGED, EVERY;

    public static Mode parse(String s) {
      switch (s) {
        case "all":
          return ALL;
        case "first-m":
          return FIRST_M;
        case "hedged":
          return HEDGED;
        case "every":
          return EVERY;
        default:
          throw new IllegalArgumentException("read mode must be all, first-m or hedged, was '" + s + "'");
      }
    }
  }

  /** Where pieces come from: a peer, over the network by default (a peer reads its own from its store). */
  @FunctionalInterface
  public interface PieceSource {
    CompletableFuture<PieceReply> get(LocatedChunk.Holder holder, FragmentKey key);

    static PieceSource of(PeerClient peers) {
      return (holder, key) -> peers.get(holder.address(), key);
    }
  }

  /**
   * What reading a chunk gave: m ({@code needed}; 0 when the chunk's coding is unknown), the verified
   * pieces by index (null where none), how many, how many holders were asked, and what went wrong.
   */
  public record Pieces(ChunkId id, int needed, Fragment[] fragments, int good, int asked, List<String> problems) {
    public boolean enough() {
      return needed > 0 && good >= needed;
    }

    /** The chunk, decoded from the pieces in hand and checked against its id (plaintext chunks). */
    public byte[] decode() throws CorruptDataException {
      return decode(org.cairn.core.crypto.ChunkCrypto.PLAIN);
    }

    /** The chunk, decoded from the pieces in hand, opened with {@code crypto} when sealed, and checked against its id. */
    public byte[] decode(org.cairn.core.crypto.ChunkCrypto crypto) throws CorruptDataException {
      if (!enough()) {
        throw new CorruptDataException(describe());
      }
      return ChunkCodec.decode(id, fragments, crypto);
    }

    /** One line: why the chunk cannot be read, or what was seen. */
    public String describe() {
      return "chunk " + id.shortHex() + ": " + good + " good pieces of " + (needed == 0 ? "?" : needed) + " needed"
          + (problems.isEmpty() ? "" : " (" + String.join("; ", problems) + ")");
    }
  }

  /** Hedged reads: another holder after this many times the chunk's time so far without a new piece. */
  static final int HEDGE_FACTOR = 2;
  /** Requests a holder may have outstanding before ALL stops asking it for further chunks. */
  static final int MAX_BACKLOG = 8;

  private final PieceSource source;
  private final Mode mode;
  private final Duration timeout;
  private final ScheduledExecutorService timer;
  private final BadPieceLog bad;
  private final Map<String, AtomicInteger> backlogs = new ConcurrentHashMap<>();
  /** Smoothed time each holder (by address) took to deliver a piece: hedged reads ask the fastest first. */
  private final Map<String, Long> holderNanos = new ConcurrentHashMap<>();

  /**
   * @param timeout a chunk gives up on holders that have not answered after this long
   * @param timer schedules hedges and the timeout
   * @param bad where bad pieces are collected
   */
  public ChunkReader(PieceSource source, Mode mode, Duration timeout, ScheduledExecutorService timer, BadPieceLog bad) {
    this.source = source;
    this.mode = mode;
    this.timeout = timeout;
    this.timer = timer;
    this.bad = bad;
  }

  public Mode mode() {
    return mode;
  }

  /** Reads the chunk's pieces; the future always completes normally, with what was read. */
  public CompletableFuture<Pieces> read(LocatedChunk chunk) {
    return new Read(chunk).start();
  }

  private AtomicInteger backlog(String address) {
    return backlogs.computeIfAbsent(address, a -> new AtomicInteger());
  }

  /** One chunk's read; its state is guarded by its own lock, requests go out without it. */
  private final class Read {
    private final LocatedChunk chunk;
    private final ChunkId id;
    private final Fragment[] got;
    /** Pieces asked a second time after their connection failed. */
    private final boolean[] retried;
    private final List<Integer> order = new ArrayList<>();
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

    Read(LocatedChunk chunk) {
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
      for (int i = 0; i < got.length; i++) {
        LocatedChunk.Holder h = chunk.holder(i);
        if (h == null) {
          problems.add("piece " + i + ": no holder");
        } else if (!h.live()) {
          problems.add("piece " + i + ": holder " + h.id() + " is " + h.state());
        } else if (!validTag(h.tag())) {
          problems.add("piece " + i + ": no valid tag in the index");
        } else {
          (mode == Mode.ALL && backlog(h.address()).get() >= MAX_BACKLOG ? backlogged : idle).add(i);
        }
      }
      // unloaded holders first (FALCON: a LOADED or BUSY host serves slowly), data pieces first among equals
      Comparator<Integer> byState = Comparator.comparingInt(i -> chunk.holder(i).state().code());
      if (mode == Mode.HEDGED) {
        idle.sort(byState.thenComparingLong(i -> holderNanos.getOrDefault(chunk.holder(i).address(), 0L)));
      } else if (mode == Mode.FIRST_M) {
        idle.sort(byState);
      }
      order.addAll(idle);
      order.addAll(backlogged);
      if (needed == 0) {
        problems.add("the index has no coding for this chunk");
      }
      int first;
      switch (mode) {
        case EVERY:
          first = order.size();
          break;
        case ALL:
          first = idle.size() >= Math.max(1, needed) ? idle.size() : order.size();
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
          long ms = Math.max(1, timeout.toMillis());
          deadline = timer.schedule(this::timedOut, ms, TimeUnit.MILLISECONDS);
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
      AtomicInteger backlog = backlog(h.address());
      backlog.incrementAndGet();
      long askedAt = System.nanoTime();
      CompletableFuture<PieceReply> reply;
      try {
        reply = source.get(h, key);
      } catch (RuntimeException e) {
        reply = CompletableFuture.failedFuture(e);
      }
      reply.whenComplete((r, error) -> {
        backlog.decrementAndGet();
        if (r instanceof PieceReply.Found) {
          holderNanos.merge(h.address(), System.nanoTime() - askedAt, (old, now) -> (old * 3 + now) / 4);
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
          hedge = mode == Mode.HEDGED && good < needed;
        } else if (reply instanceof PieceReply.Missing missing) {
          problems.add("piece " + i + " on " + h.id() + ": " + missing.reason());
          bad.add(h.id(), key, missing.reason().startsWith("corrupt") ? missing.reason() : "not held (" + missing.reason() + ")");
        } else if (reply instanceof PieceReply.Corrupt corrupt) {
          problems.add("piece " + i + " from " + h.id() + " is corrupt: " + corrupt.reason());
          bad.add(h.id(), key, "corrupt on arrival: " + corrupt.reason());
        } else {
          problems.add("piece " + i + " from " + h.id() + ": " + ((PieceReply.Failed) reply).reason());
        }
        if (mode == Mode.EVERY) {
          if (outstanding == 0) {
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
      long delay = Math.max(TimeUnit.MILLISECONDS.toNanos(10), HEDGE_FACTOR * elapsed);
      timer.schedule(() -> {
        int another = -1;
        synchronized (this) {
          if (!over && good == seen && next < order.size()) {
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
          problems.add(outstanding + " holders did not answer within " + timeout.toMillis() + " ms");
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

  private static boolean validTag(String tag) {
    try {
      FragmentKey.parseTag(tag);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
