package org.cairn.peer.repair;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.PutReply;
import org.cairn.peer.load.Throttle;
import org.cairn.peer.store.FragmentStore;

/*
 * Stores a batch's rebuilt pieces on their targets: every piece for one target goes in one PUT (a FragmentBatch, as a
 * client store's PieceWriter sends them, split only past PUT_BYTES), which the target's FragmentStore.putBuffers writes
 * as one batch with one durable write, and pieces whose target is this peer go in one FragmentStore.putAll. So a batch
 * costs each target one sync, not one per piece. A PUT is all or nothing on the target, so each piece's result is its
 * PUT's. Bytes sent pass the repair's upload throttle.
 */
final class TargetWrites {
  /** The most bytes of pieces one PUT carries: the client's default store batch (ClientTuning.batchBytes). */
  static final int PUT_BYTES = 4 << 20;

  /** Where a rebuilt piece goes: the job, which of its targets, and the piece. */
  record Piece(RepairJob job, RepairJob.Piece target, Fragment fragment) {}

  private final String self;
  private final FragmentStore store;
  private final PeerClient peers;
  private final Throttle upload;
  private final Duration timeout;
  private final Consumer<List<FragmentKey>> storedLocally;

  TargetWrites(String self, FragmentStore store, PeerClient peers, Throttle upload, Duration timeout,
      Consumer<List<FragmentKey>> storedLocally) {
    this.self = self;
    this.store = store;
    this.peers = peers;
    this.upload = upload;
    this.timeout = timeout;
    this.storedLocally = storedLocally;
  }

  /** Stores the pieces; returns, for each piece that did not land, why (pieces not in the map landed durably). */
  Map<Piece, String> place(List<Piece> pieces) throws InterruptedException {
    Map<String, List<Piece>> byTarget = new LinkedHashMap<>();
    for (Piece p : pieces) {
      byTarget.computeIfAbsent(p.target().peer() + "@" + p.target().address(), k -> new ArrayList<>()).add(p);
    }
    Map<Piece, String> failed = new java.util.IdentityHashMap<>();
    List<Map.Entry<List<Piece>, CompletableFuture<String>>> sends = new ArrayList<>();
    for (List<Piece> forTarget : byTarget.values()) {
      if (forTarget.get(0).target().peer().equals(self)) {
        String problem = storeHere(forTarget);
        if (problem != null) {
          forTarget.forEach(p -> failed.put(p, problem));
        }
        continue;
      }
      for (List<Piece> put : split(forTarget)) {
        long bytes = 0;
        for (Piece p : put) {
          bytes += p.fragment().serializedSize();
        }
        upload.acquire(bytes);
        sends.add(Map.entry(put, send(put)));
      }
    }
    for (Map.Entry<List<Piece>, CompletableFuture<String>> s : sends) {
      String problem = await(s.getValue());
      if (problem != null) {
        s.getKey().forEach(p -> failed.put(p, problem));
      }
    }
    return failed;
  }

  /** A target's pieces in PUTs of at most PUT_BYTES (one at least) and FragmentBatch.MAX_FRAGMENTS pieces. */
  private static List<List<Piece>> split(List<Piece> pieces) {
    List<List<Piece>> out = new ArrayList<>();
    List<Piece> current = new ArrayList<>();
    long bytes = 0;
    for (Piece p : pieces) {
      long size = p.fragment().serializedSize();
      if (!current.isEmpty() && (bytes + size > PUT_BYTES || current.size() == FragmentBatch.MAX_FRAGMENTS)) {
        out.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(p);
      bytes += size;
    }
    out.add(current);
    return out;
  }

  /** This peer is the target: one batch into its own store; null on success, else the problem. */
  private String storeHere(List<Piece> pieces) {
    List<byte[]> bytes = new ArrayList<>();
    List<FragmentKey> keys = new ArrayList<>();
    for (Piece p : pieces) {
      bytes.add(p.fragment().toBytes());
      keys.add(FragmentKey.of(p.fragment()));
    }
    try {
      store.putAll(bytes);
    } catch (IOException e) {
      return "local store failed: " + e.getMessage();
    }
    storedLocally.accept(keys);
    return null;
  }

  /** One PUT of {@code pieces} to their target; the future yields null once they are durable there, else the problem. */
  private CompletableFuture<String> send(List<Piece> pieces) {
    List<Fragment> fragments = new ArrayList<>();
    int size = 16;
    for (Piece p : pieces) {
      fragments.add(p.fragment());
      size += p.fragment().serializedSize() + 4;
    }
    ByteBuf batch = Unpooled.buffer(size);
    FragmentBatch.encodeFragments(fragments, batch); // header and payload straight into the frame: no copy per piece first
    return peers.put(pieces.get(0).target().address(), batch).handle((reply, error) -> {
      if (error != null) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return e.getMessage() == null ? e.toString() : e.getMessage();
      }
      if (reply instanceof PutReply.Stored) {
        return null;
      }
      return reply instanceof PutReply.Refused refused ? "refused (" + refused.reason() + ")" : ((PutReply.Failed) reply).reason();
    });
  }

  private String await(CompletableFuture<String> f) throws InterruptedException {
    // a PUT of a few MiB to a slow disk takes longer than one piece: a second per MiB it may carry on top
    Duration wait = timeout.multipliedBy(2).plusSeconds(PUT_BYTES >> 20);
    try {
      return f.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return e.getCause().getMessage();
    } catch (TimeoutException e) {
      return "no answer within " + wait.toSeconds() + " s";
    }
  }
}
