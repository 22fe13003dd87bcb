package org.cairn.core.read;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PieceReply;

/*
 * Reads one chunk's pieces from their holders (FALCON "Recover", §3.3) — the only place a piece is
 * read, shared by fetch, verify and repair so that they cannot disagree about what is restorable.
 *
 * m comes from the chunk's own coding (its index entry, then the verified header of the first piece
 * that arrives), never from a version that refers to it. Holders the tracker lists DOWN are asked last, and
 * only when the live ones cannot give m pieces (the tracker notices a holder's return a heartbeat late).
 * Modes:
 *   ALL      every live holder at once, except one still answering MAX_BACKLOG earlier requests of
 *            this reader (its answer would come after the chunk is decoded); those are asked when
 *            others fail, or at once when fewer than m would be asked without them;
 *   FIRST_M  m holders (RUNNING before LOADED before BUSY, data pieces first among equals), one more
 *            for each that fails: the sequential baseline of FALCON Fig. 9 (repair reads this way);
 *   HEDGED   as FIRST_M, by state then fastest holders of this reader first, and one more holder whenever, after a
 *            piece arrived, none follows within HEDGE_FACTOR times the chunk's time so far;
 *   EVERY    every live holder, all answers awaited (verify --read-data); then, if they gave fewer than m
 *            pieces, every holder listed DOWN.
 * In every mode the invariant is: while fewer than m pieces are in hand, pieces in hand plus answers
 * awaited stay at least m, as long as any holder is left to ask. Pieces that arrive corrupt, and
 * pieces a holder says it does not hold, go to the BadPieceLog. This class holds what a reader's
 * reads share (the source, the mode, each holder's backlog and speed); one chunk's read is a ChunkRead.
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


  /** Hedged reads: another holder after this many times the chunk's time so far without a new piece. */
  static final int HEDGE_FACTOR = 2;
  /** Requests a holder may have outstanding before ALL stops asking it for further chunks. */
  static final int MAX_BACKLOG = 8;

  final PieceSource source;
  final Mode mode;
  final Duration timeout;
  final ScheduledExecutorService timer;
  final BadPieceLog bad;
  private final Map<String, AtomicInteger> backlogs = new ConcurrentHashMap<>();
  /**
   * Addresses of holders listed DOWN that could not be reached when asked: not asked again by this reader, so a
   * host that is really gone (one that drops packets costs a connect timeout) is paid for once per command.
   */
  final java.util.Set<String> unreachableDown = ConcurrentHashMap.newKeySet();
  /** Smoothed time each holder (by address) took to deliver a piece: hedged reads ask the fastest first. */
  final Map<String, Long> holderNanos = new ConcurrentHashMap<>();

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
    return new ChunkRead(this, chunk).start();
  }

  /** Whether a holder listed DOWN at {@code address} was asked by this reader and could not be reached. */
  public boolean unreachable(String address) {
    return unreachableDown.contains(address);
  }

  AtomicInteger backlog(String address) {
    return backlogs.computeIfAbsent(address, a -> new AtomicInteger());
  }


  static boolean validTag(String tag) {
    try {
      FragmentKey.parseTag(tag);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
