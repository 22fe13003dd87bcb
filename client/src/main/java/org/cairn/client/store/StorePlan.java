package org.cairn.client.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.cairn.client.bases.BaseCache;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;

/**
 * A store's first phase, plan: where its pieces go and what it need not send. Placement comes from the
 * tracker (n hosts and as many alternates; BUSY or FULL hosts waited out, {@link HostWait}); hosts whose
 * bandwidth measurement is missing or stale are probed and placement asked again ({@link Prober}; the
 * "pessimistic" baseline probes every host first). Meanwhile, on threads of their own, the app's dedup
 * index is asked for ({@link HeldIndex}) and the host's cache of bases indexes itself, so neither waits
 * for the other. The plan is what the transfer phase works from.
 */
final class StorePlan {
  /** The store's slots and alternates. */
  final HostSet hosts;
  /** "id bytes/s" of each host probed before placing. */
  final List<String> probed;
  /**
   * Dedup: the chunk ids the app holds coded at least as strongly as this store asks. A chunk held with weaker coding is
   * stored again with this coding and replaces the weaker one at the commit, so dedup never weakens a version; chunks
   * committed by others meanwhile are merely sent again (the commit keeps the index's holders, the extra pieces become
   * garbage).
   */
  final Set<ChunkId> held;
  /** The host's cache of bases when chunks of memory are coded against the previous version's (null: not, or no cache). */
  final BaseCache baseCache;
  /** How long placement and probes took, and the wait for the dedup index after them (for the debug log). */
  final long placeNanos;
  final long indexNanos;

  private StorePlan(HostSet hosts, List<String> probed, Set<ChunkId> held, BaseCache baseCache, long placeNanos, long indexNanos) {
    this.hosts = hosts;
    this.probed = probed;
    this.held = held;
    this.baseCache = baseCache;
    this.placeNanos = placeNanos;
    this.indexNanos = indexNanos;
  }

  /** Plans a store of about {@code sizeHint} bytes (0 or less: unknown) with options {@code o}. */
  static StorePlan make(TrackerClient tracker, PeerClient peers, StoreOptions o, ClientTuning tuning, long sizeHint)
      throws IOException {
    long start = System.nanoTime();
    // chunks of memory are coded against the previous version's chunk at the same address (a set part: against the same
    // part of the previous set), found first in the host's cache, which indexes itself meanwhile (on a thread of its own
    // when a process first uses it)
    BaseCache baseCache = o.delta() ? BaseCache.standard(tuning) : null;
    Redundancy r = o.redundancy();
    boolean pessimistic = o.placement().equals("pessimistic");
    PlacementQuery query = PlacementQuery.of(o.clientId(), Math.max(0, sizeHint), r.dataFragments(), r.parityFragments(),
        pessimistic ? "falcon" : o.placement(), 2 * r.totalFragments());
    // the dedup index is asked for at once, on a thread of its own, while the store is placed (neither needs the other)
    CompletableFuture<Set<ChunkId>> heldCall = HeldIndex.ask(tracker, o.app(), r.spec());
    Prober prober = new Prober(tracker, peers, o.clientId());
    List<String> probed = new ArrayList<>();
    if (pessimistic) {
      // the baseline FALCON compares with: measure every candidate before every store
      probed.addAll(prober.probeAll());
    }
    PlacementAnswer placement = HostWait.place(tracker, query, o.hostWait());
    if (!pessimistic && o.probeAfter() != null && o.placement().equals("falcon")) {
      // hosts never measured, or measured long ago, are probed; if any were, place again with what was learnt
      List<String> renewed = prober.probeStale(placement, o.probeAfter());
      if (!renewed.isEmpty()) {
        probed.addAll(renewed);
        placement = HostWait.place(tracker, query, o.hostWait());
      }
    }
    long placed = System.nanoTime();
    Set<ChunkId> held = HeldIndex.await(heldCall);
    return new StorePlan(new HostSet(placement), probed, held, baseCache, placed - start, System.nanoTime() - placed);
  }
}
