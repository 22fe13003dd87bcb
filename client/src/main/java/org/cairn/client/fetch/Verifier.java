package org.cairn.client.fetch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.erasure.CodingSummary;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.ChunkRef;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.ChunkDecoder;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.ChunkReader;
import org.cairn.core.read.Health;
import org.cairn.core.read.PieceCensus;
import org.cairn.core.read.Pieces;

/*
 * `cairn verify` (like `restic check [--read-data]`): does every chunk of a version have at least m
 * pieces (its own m) that exist? Without --read-data each live holder is asked whether it holds its
 * pieces (PieceCensus: HAS, batched per peer); with --read-data every live piece is read by the
 * ChunkReader, the read path fetch uses, verified, and the chunk is decoded from all good pieces and
 * checked against its id. Health's one rule judges both. Bad pieces found are reported to the
 * tracker, which has them repaired.
 */
public final class Verifier {
  /** What a verification found. {@code problems} names at most a few dozen chunks. */
  public record Report(String app, String node, long step, String redundancy, int chunks, int healthy, int degraded, int lost,
      long piecesChecked, long piecesBad, List<String> problems) {
    public boolean restorable() {
      return lost == 0;
    }
  }

  private final TrackerClient tracker;
  private final PeerClient peers;
  private final ScheduledExecutorService timer;

  public Verifier(TrackerClient tracker, PeerClient peers, ScheduledExecutorService timer) {
    this.tracker = tracker;
    this.peers = peers;
    this.timer = timer;
  }

  public Report verify(LocatedVersion located, boolean readData, int threads) throws IOException {
    return verify(located, readData, threads, ChunkCrypto.PLAIN);
  }

  /**
   * As above; with --read-data an encrypted chunk is opened and checked when {@code crypto} is its
   * app's key, and otherwise checked as repair checks it, without the key (its pieces must re-code
   * to each other).
   */
  public Report verify(LocatedVersion located, boolean readData, int threads, ChunkCrypto crypto) throws IOException {
    org.cairn.core.read.Tickets.present(peers, located.tickets()); // READ tickets for each holder
    Map<ChunkId, LocatedChunk> chunks = new LinkedHashMap<>();
    for (ChunkRef ref : located.manifest().chunks()) {
      chunks.computeIfAbsent(ref.id(), located::chunk);
    }
    for (LocatedChunk c : new ArrayList<>(chunks.values())) {
      if (c.baseId() != null) {
        chunks.computeIfAbsent(c.baseId(), located::chunk); // a restore needs the bases too
      }
    }
    List<String> problems = Collections.synchronizedList(new ArrayList<>());
    Map<ChunkId, Integer> good = new LinkedHashMap<>();
    Map<ChunkId, Integer> needed = new LinkedHashMap<>();
    long checked = 0;
    BadPieceLog bad = new BadPieceLog();
    if (readData) {
      ChunkReader reader = new ChunkReader(ChunkReader.PieceSource.of(peers), ChunkReader.Mode.EVERY, peers.timeout().multipliedBy(6),
          timer, bad);
      Semaphore window = new Semaphore(Math.max(1, threads) * 4); // chunks read at once: bounded memory
      Map<ChunkId, CompletableFuture<Pieces>> reads = new LinkedHashMap<>();
      // a base is verified as a chunk of the version; the copy a chunk coded against it is decoded with is
      // read again from m holders, hedged (bounded memory: it is dropped once used)
      org.cairn.core.read.BaseReads bases = new org.cairn.core.read.BaseReads(
          new ChunkReader(ChunkReader.PieceSource.of(peers), ChunkReader.Mode.HEDGED, peers.timeout().multipliedBy(6), timer, bad),
          located::chunk, crypto);
      // decoding a chunk may wait for its base's read: not on the readers' threads
      java.util.concurrent.ExecutorService decoders = java.util.concurrent.Executors.newFixedThreadPool(Math.max(1, threads),
          org.cairn.core.log.CommandContext.threads("cairn-verify"));
      try {
        for (LocatedChunk c : chunks.values()) {
          window.acquire();
          bases.prefetch(c);
          reads.put(c.chunkId(), reader.read(c).thenApplyAsync(p -> consistent(p, crypto, bases, problems), decoders)
              .whenComplete((p, e) -> window.release()));
        }
        for (Map.Entry<ChunkId, CompletableFuture<Pieces>> e : reads.entrySet()) {
          Pieces p = e.getValue().get();
          good.put(e.getKey(), p.good());
          needed.put(e.getKey(), p.needed());
          checked += p.asked();
        }
      } catch (ExecutionException e) {
        throw new IOException(e.getCause().getMessage(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      } finally {
        decoders.shutdownNow();
      }
    } else {
      Map<ChunkId, Integer> held = new PieceCensus(peers, peers.timeout()).count(chunks.values(), problems);
      good.putAll(held);
      for (LocatedChunk c : chunks.values()) {
        for (int i = 0; i < c.pieces(); i++) {
          checked += c.holder(i) != null && c.holder(i).live() ? 1 : 0;
        }
      }
    }
    long piecesBad = bad.size();
    bad.flush(tracker, "cairn verify");
    int healthy = 0;
    int degraded = 0;
    int lost = 0;
    for (LocatedChunk c : chunks.values()) {
      int g = good.getOrDefault(c.chunkId(), 0);
      int m = needed.getOrDefault(c.chunkId(), c.needed());
      switch (Health.of(m, c.pieces(), g)) {
        case HEALTHY:
          healthy++;
          break;
        case DEGRADED:
          degraded++;
          break;
        default:
          lost++;
          problems.add("chunk " + c.chunkId().shortHex() + ": " + g + " good pieces, needs " + (m == 0 ? "?" : m)
              + " (" + (c.redundancy() == null ? "not in the index" : c.redundancy()) + ")");
      }
    }
    List<String> shown = problems.size() > 40 ? new ArrayList<>(problems.subList(0, 40)) : new ArrayList<>(problems);
    return new Report(located.manifest().app(), located.manifest().node(), located.manifest().step(), coding(chunks.values()),
        chunks.size(), healthy, degraded, lost, checked, piecesBad, shown);
  }

  /** With every good piece in hand, they must agree and decode to the chunk's id; otherwise none counts. */
  private static Pieces consistent(Pieces p, ChunkCrypto crypto, ChunkCodec.Bases bases, List<String> problems) {
    if (!p.enough()) {
      return p; // too few pieces: lost, whatever they hold
    }
    try {
      if (sealedWithout(p, crypto)) {
        ChunkDecoder.rebuild(p.id(), p.fragments(), new int[0]);
      } else {
        ChunkDecoder.decode(p.id(), p.fragments(), crypto, bases);
      }
      return p;
    } catch (IOException e) {
      problems.add("chunk " + p.id().shortHex() + " does not decode: " + e.getMessage());
      return new Pieces(p.id(), p.needed(), p.fragments(), 0, p.asked(), p.problems());
    }
  }

  /** True if the chunk is sealed and {@code crypto} cannot open it (no key at hand). */
  private static boolean sealedWithout(Pieces p, ChunkCrypto crypto) {
    for (org.cairn.core.fragment.Fragment f : p.fragments()) {
      if (f != null) {
        return f.encryption().encrypted() && f.encryption() != crypto.encryption();
      }
    }
    return false;
  }

  /** The version's coding as its chunks really have it: one spec, or "mixed (weakest X)". */
  static String coding(Iterable<LocatedChunk> chunks) {
    List<String> specs = new ArrayList<>();
    for (LocatedChunk c : chunks) {
      specs.add(c.redundancy());
    }
    return CodingSummary.of(specs).toString();
  }
}
