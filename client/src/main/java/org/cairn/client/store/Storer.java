package org.cairn.client.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.client.bases.BaseCache;
import org.cairn.client.bases.DeltaBases;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;
import org.cairn.core.api.member.BandwidthReport;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.log.CommandContext;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.StorePipeline;
import org.cairn.core.pipeline.StoreResult;
import org.cairn.core.protocol.FragmentKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Stores one checkpoint image as a version (ARCHITECTURE §3, FALCON §3.3, stdchk §IV):
 * placement from the tracker (n hosts + alternates; hosts whose bandwidth measurement is missing or
 * stale are probed first and placement asked again), the core store pipeline with dedup against the
 * app's chunk index, fragment i of every new chunk to host i, all hosts in parallel, batched per host
 * (PieceWriter), with at most IN_FLIGHT_BYTES of pieces unacknowledged; a host that refuses or fails
 * is replaced by the next alternate and only the unacknowledged pieces are resent to it. MABw is
 * reported every 10 s while the store runs and at its end. Pessimistic writes: a chunk counts as stored when all n
 * fragments are acknowledged durable. Then the manifest is committed atomically; anything that
 * fails before the commit leaves no version (the sent fragments are garbage for GC).
 */
public final class Storer {
  /**
   * What a store did. A part of a checkpoint set has {@code set} (the commit's answer: its set, parts
   * and parts committed so far); its {@code step} is 0 until the set's last part commits.
   * {@code sentBytes}: the version's data pieces sent; {@code recordBytes}: the pieces of its catalog
   * record (issue #21), 0 if none was stored, -1 if it is being stored after the store returned.
   */
  public record Result(String app, String node, long step, long size, long chunks, long newChunks, long sentBytes,
      double seconds, List<String> hosts, List<String> replaced, List<String> probed, CommitRequest.Answer set, long newBytes,
      long compressedBytes, long recordBytes) {}

  /** Pieces in flight (sent or queued, not yet acknowledged) are bounded by this many bytes. */
  static final long IN_FLIGHT_BYTES = Long.getLong("cairn.store.inFlightBytes", 48L << 20);
  /** MABw is reported this often while a store is active (FALCON §3.2.2: every 10 s). */
  static final Duration MABW_PERIOD = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(Storer.class);

  private final TrackerClient tracker;
  private final PeerClient peers;
  private final java.util.concurrent.Executor records;

  public Storer(TrackerClient tracker, PeerClient peers) {
    this(tracker, peers, null);
  }

  /**
   * @param records where the version's catalog record is put on the grid after the store returns (a
   *     resident agent's); null: before it returns
   */
  public Storer(TrackerClient tracker, PeerClient peers, java.util.concurrent.Executor records) {
    this.tracker = tracker;
    this.peers = peers;
    this.records = records;
  }

  public Result store(InputStream in, long sizeHint, StoreOptions o) throws IOException {
    long start = System.nanoTime();
    // chunks of memory are coded against the previous version's chunk at the same address (not for set parts), found
    // first in the host's cache, which indexes itself meanwhile (on a thread of its own when a process first uses it)
    BaseCache baseCache = o.delta() && o.set() == null ? BaseCache.standard() : null;
    Redundancy r = o.redundancy();
    boolean pessimisticProbe = o.placement().equals("pessimistic");
    PlacementQuery req = PlacementQuery.of(o.clientId(), Math.max(0, sizeHint), r.dataFragments(), r.parityFragments(),
        pessimisticProbe ? "falcon" : o.placement(), 2 * r.totalFragments());
    // the dedup index is asked for at once, on a thread of its own, while the store is placed (neither needs the other)
    java.util.concurrent.CompletableFuture<java.util.Set<ChunkId>> heldCall = HeldIndex.ask(tracker, o.app(), r.spec());
    Prober prober = new Prober(tracker, peers, o.clientId());
    List<String> probed = new ArrayList<>();
    if (pessimisticProbe) {
      // the baseline FALCON compares with: measure every candidate before every store
      probed.addAll(prober.probeAll());
    }
    PlacementAnswer placement = HostWait.place(tracker, req, o.hostWait());
    if (!pessimisticProbe && o.probeAfter() != null && o.placement().equals("falcon")) {
      // hosts never measured, or measured long ago, are probed; if any were, place again with what was learnt
      List<String> renewed = prober.probeStale(placement, o.probeAfter());
      if (!renewed.isEmpty()) {
        probed.addAll(renewed);
        placement = HostWait.place(tracker, req, o.hostWait());
      }
    }
    long placed = System.nanoTime();
    HostSet hosts = new HostSet(placement, peers);
    // the pools' threads carry this command's context (an agent's client gets their warnings), wherever they start
    ExecutorService io = Executors.newCachedThreadPool(CommandContext.threads("cairn-store-io"));
    ScheduledExecutorService mabw = Executors.newSingleThreadScheduledExecutor(CommandContext.threads("cairn-mabw"));
    PieceWriter writer = new PieceWriter(hosts, io, Integer.getInteger("cairn.store.batchBytes", PieceWriter.DEFAULT_BATCH_BYTES),
        o.soft());
    Map<String, HostTraffic.Traffic> reported = new HashMap<>();
    mabw.scheduleAtFixedRate(() -> reportBandwidth(o.clientId(), writer, reported), MABW_PERIOD.toMillis(), MABW_PERIOD.toMillis(),
        TimeUnit.MILLISECONDS);
    // chunks are named to the tracker before their pieces leave, so GC spares them until the commit
    PendingChunks pending = new PendingChunks(tracker, peers, hosts::allIds, java.util.UUID.randomUUID().toString(), o.app(), io,
        o.commitTimeout().multipliedBy(2));
    mabw.scheduleWithFixedDelay(pending::refresh, 1, 1, TimeUnit.SECONDS); // retries, and a call after 2 s of silence
    boolean versionCommitted = false;
    boolean recordLater = false;
    // Dedup: the chunk ids the app holds coded at least as strongly as this store asks, fetched once.
    // A chunk held with weaker coding is stored again with this coding and replaces the weaker one at
    // the commit, so dedup never weakens a version; chunks committed by others meanwhile are merely
    // sent again (the commit keeps the index's holders and the extra fragments become garbage).
    java.util.Set<ChunkId> held = HeldIndex.await(heldCall);
    List<CommitRequest.NewChunk> sent = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicLong sentBytes = new AtomicLong();
    long indexed = System.nanoTime();
    DeltaBases bases = null;
    try {
      // optimistic (stdchk §IV.D): only the m data pieces now; the tracker's repair queue adds the rest
      int count = o.optimistic() ? r.dataFragments() : r.totalFragments();
      long perChunk = (long) o.chunking().maxChunk(o.chunkSize()) * r.totalFragments() / r.dataFragments() + 64L * r.totalFragments();
      int window = (int) Math.max(2L * o.threads(), Math.min(256, IN_FLIGHT_BYTES / perChunk));
      // chunks being read and coded are bounded by the window; those awaiting their acknowledgements by the bytes of their pieces
      StorePipeline pipeline = new StorePipeline(new ChunkCodec(o.compressor(), r, o.crypto()), o.chunking(), o.chunkSize(), o.threads(),
          window, IN_FLIGHT_BYTES);
      // an agent's store answers before the host's cache has its chunks: they are written after the answer
      bases = o.delta() && o.set() == null
          ? new DeltaBases(DeltaBases.Previous.of(tracker, o.app(), o.node()), baseCache, o.crypto(), peers, mabw, io, records != null)
          : null;
      DeltaBases deltas = bases;
      // a new chunk is named to the tracker as soon as its id is known, so the call runs while the chunk is
      // coded and takes the chunks identified meanwhile with it (named once its pieces were ready, a DMTCP
      // first image took 104-204 calls for 541 chunks; now 53-57, calls starting >= 20 ms apart)
      StorePipeline.DedupIndex dedup = id -> {
        if (held.contains(id)) {
          return true;
        }
        pending.register(id);
        return false;
      };
      StoreResult res = pipeline.storeAsync(in, dedup, bases == null ? StorePipeline.BaseSource.NONE : bases,
          StorePipeline.AsyncFragmentSink.endingWith((index, fragments) -> {
        @SuppressWarnings("unchecked")
        CompletableFuture<String>[] acks = new CompletableFuture[count];
        return pending.register(fragments[0].chunkId()).thenCompose(named -> {
          for (int i = 0; i < count; i++) {
            acks[i] = writer.send(i, fragments[i]);
          }
          return CompletableFuture.allOf(acks);
        }).thenRun(() -> {
          String[] holders = new String[fragments.length];
          String[] tags = new String[fragments.length];
          long bytes = 0;
          for (int i = 0; i < fragments.length; i++) {
            bytes += fragments[i].serializedSize();
            tags[i] = FragmentKey.tagHex(fragments[i].tag());
            if (i < count) {
              holders[i] = acks[i].join();
              sentBytes.addAndGet(fragments[i].serializedSize());
            }
          }
          ChunkId base = fragments[0].compression().delta()
              ? deltas.baseOf(fragments[0].chunkId()) : null;
          sent.add(new CommitRequest.NewChunk(fragments[0].chunkId().hex(), java.util.Arrays.asList(holders),
              java.util.Arrays.asList(tags), bytes, r.spec(), base == null ? null : base.hex()));
        });
      }, writer::noMoreLinger));
      long piped = System.nanoTime();
      if (res.deltaChunks() > 0) {
        LOG.debug("store {}.{}: {} chunks coded against a base", o.app(), o.node(), res.deltaChunks());
      }
      Manifest manifest = Manifest.of(o.app(), o.node(), o.step(), o.chunking().maxChunk(o.chunkSize()), r.spec(),
          o.compressor().spec(), o.kind(), System.currentTimeMillis(), hostName(), res.chunks(), o.crypto().encryption().spec(),
          o.crypto().fingerprint()).withChunking(o.chunking().spec()).withSet(o.set());
      CommitRequest.Answer answer = commit(new CommitRequest(manifest, new ArrayList<>(sent), pending.session(),
          o.soft() ? writer.softHolds() : null), o.commitTimeout());
      versionCommitted = true;
      long step = answer.step();
      long committed = System.nanoTime();
      LOG.debug("store {}.{}: placement and probes {} ms, dedup index {} ms, pipeline {} ms ({} chunks named in {} calls), commit {} ms",
          o.app(), o.node(), (placed - start) / 1_000_000, (indexed - placed) / 1_000_000, (piped - indexed) / 1_000_000,
          sent.size(), pending.calls(), (committed - piped) / 1_000_000);
      long recordBytes = -1;
      mabw.shutdownNow();
      if (records != null) {
        if (bases != null) {
          bases.answered(records);
        }
        // the job waits for neither the record nor the bandwidth measured (one call to the tracker per host, 10-30 ms
        // for a successor): the agent's thread puts the record on the grid, reports, then lets the store's io go
        records.execute(() -> {
          try {
            CatalogCopy.store(tracker, peers, hosts, writer, io, r, o.app(), o.node(), step);
            reportBandwidth(o.clientId(), writer, reported);
          } finally {
            io.shutdown();
          }
        });
        recordLater = true;
      } else {
        recordBytes = CatalogCopy.store(tracker, peers, hosts, writer, io, r, o.app(), o.node(), step);
        LOG.debug("store {}.{}: catalog record {} ms", o.app(), o.node(), (System.nanoTime() - committed) / 1_000_000);
        reportBandwidth(o.clientId(), writer, reported);
      }
      return new Result(o.app(), o.node(), step, res.bytesIn(), res.chunks().size(), res.newChunks(), sentBytes.get(),
          (System.nanoTime() - start) / 1e9, hosts.hostIds(), hosts.replaced(), probed, answer.set() == null ? null : answer,
          res.newBytes(), res.encodedBytes(), recordBytes);
    } finally {
      mabw.shutdownNow();
      if (!versionCommitted) {
        pending.abandon();
        if (bases != null) {
          bases.failed();
        }
      }
      if (!recordLater) {
        io.shutdown();
      }
    }
  }

  /**
   * Commits; while the tracker is unreachable (restarting), tries again every second until the
   * timeout. The commit carries the store's session, so the tracker answers a repeated commit that
   * had already landed with the same step instead of committing a second version.
   */
  private CommitRequest.Answer commit(CommitRequest commit, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean said = false;
    while (true) {
      try {
        return tracker.commit(commit);
      } catch (TrackerHttp.UnreachableException e) {
        if (System.nanoTime() >= deadline) {
          throw new IOException(e.getMessage() + "; gave up committing after " + timeout.toSeconds() + " s, so no version was made", e);
        }
        if (!said) {
          said = true;
          LOG.warn("{}; every piece is stored, trying to commit for up to {} s", e.getMessage(), timeout.toSeconds());
        }
        try {
          Thread.sleep(1000);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting to commit", ie);
        }
      }
    }
  }

  /**
   * Passive available-bandwidth measurement (FALCON §3.2.2): per host, bytes acknowledged per second
   * during which PUTs were outstanding, over the traffic since the last report (MABw), if at least
   * 1 MiB moved.
   */
  private void reportBandwidth(String client, PieceWriter writer, Map<String, HostTraffic.Traffic> reported) {
    Map<String, HostTraffic.Traffic> now = writer.traffic();
    synchronized (reported) {
      for (Map.Entry<String, HostTraffic.Traffic> e : now.entrySet()) {
        HostTraffic.Traffic before = reported.get(e.getKey());
        long bytes = e.getValue().bytes - (before == null ? 0 : before.bytes);
        long nanos = e.getValue().busyNanos - (before == null ? 0 : before.busyNanos);
        if (bytes >= (1 << 20) && nanos > 0) {
          try {
            tracker.reportBandwidth(new BandwidthReport(client, e.getKey(), bytes / (nanos / 1e9), null));
            reported.put(e.getKey(), e.getValue());
          } catch (IOException | RuntimeException ex) {
            // a measurement that does not reach the tracker is not worth failing a store for
            LOG.debug("bandwidth report for {} not delivered: {}", e.getKey(), ex.getMessage());
          }
        }
      }
    }
  }

  public static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicLong n = new AtomicLong();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** This machine's host name ("unknown" if it has none). */
  public static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
