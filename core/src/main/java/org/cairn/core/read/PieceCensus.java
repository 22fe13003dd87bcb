package org.cairn.core.read;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentKey;

/**
 * Asks holders which pieces they hold (HAS, batched per peer) without reading them: how many
 * pieces of each chunk exist now. The cheap half of {@code cairn verify} (restic's {@code check}
 * without {@code --read-data}); what counts as restorable is {@link Health}'s rule, as for reads.
 */
public final class PieceCensus {
  /** Keys per HAS request. */
  static final int BATCH = 10_000;

  private final PeerClient peers;
  private final Duration timeout;

  public PieceCensus(PeerClient peers, Duration timeout) {
    this.peers = peers;
    this.timeout = timeout;
  }

  private record Asked(ChunkId chunk, FragmentKey key) {}

  /**
   * Pieces confirmed held, per chunk; unreachable peers and odd answers go to {@code problems}. Holders the
   * tracker lists DOWN are asked too, as reads ask them: last, only for chunks the live ones hold fewer than m of.
   */
  public Map<ChunkId, Integer> count(Collection<LocatedChunk> chunks, List<String> problems) throws IOException {
    Map<ChunkId, Integer> held = new HashMap<>();
    for (LocatedChunk c : chunks) {
      held.put(c.chunkId(), 0);
    }
    ask(byAddress(chunks, true), held, problems);
    List<LocatedChunk> underM = new ArrayList<>();
    for (LocatedChunk c : chunks) {
      if (held.get(c.chunkId()) < Math.max(1, c.needed())) {
        underM.add(c);
      }
    }
    ask(byAddress(underM, false), held, problems);
    return held;
  }

  /** The pieces to ask about, by holder address: live holders', or those of holders listed DOWN. */
  private static Map<String, List<Asked>> byAddress(Collection<LocatedChunk> chunks, boolean live) {
    Map<String, List<Asked>> byAddress = new LinkedHashMap<>();
    for (LocatedChunk c : chunks) {
      ChunkId id = c.chunkId();
      for (int i = 0; i < c.pieces(); i++) {
        LocatedChunk.Holder h = c.holder(i);
        if (h != null && h.live() == live && h.address() != null && ChunkReader.validTag(h.tag())) {
          byAddress.computeIfAbsent(h.address(), a -> new ArrayList<>()).add(new Asked(id, new FragmentKey(id, i, FragmentKey.parseTag(h.tag()))));
        }
      }
    }
    return byAddress;
  }

  private void ask(Map<String, List<Asked>> byAddress, Map<ChunkId, Integer> held, List<String> problems) throws IOException {
    for (Map.Entry<String, List<Asked>> e : byAddress.entrySet()) {
      List<Asked> all = e.getValue();
      for (int from = 0; from < all.size(); from += BATCH) {
        List<Asked> batch = all.subList(from, Math.min(all.size(), from + BATCH));
        List<FragmentKey> keys = new ArrayList<>(batch.size());
        for (Asked a : batch) {
          keys.add(a.key());
        }
        boolean[] answer;
        try {
          answer = peers.has(e.getKey(), keys).get(timeout.toMillis() * 3, TimeUnit.MILLISECONDS);
        } catch (ExecutionException ex) {
          problems.add("peer " + e.getKey() + ": " + ex.getCause().getMessage());
          break; // its other batches would fail the same way
        } catch (TimeoutException ex) {
          problems.add("peer " + e.getKey() + ": no answer within " + timeout.multipliedBy(3).toMillis() + " ms");
          break;
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", ex);
        }
        for (int j = 0; j < answer.length; j++) {
          if (answer[j]) {
            held.merge(batch.get(j).chunk(), 1, Integer::sum);
          }
        }
      }
    }
  }
}
