package org.cairn.client.store;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.client.bases.DeltaBases;
import org.cairn.client.tuning.ClientTuning;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.log.CommandContext;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.StorePipeline;
import org.cairn.core.pipeline.StoreResult;
import org.cairn.core.protocol.FragmentKey;

/**
 * A store's second phase, transfer: the core {@link StorePipeline} chunks, dedups against the plan's index, compresses,
 * encrypts and codes the image, and piece i of every new chunk goes to the host in slot i ({@link PieceWriter}), all
 * hosts in parallel, with at most {@link ClientTuning#inFlightBytes} of pieces unacknowledged. Each new chunk is named
 * to the tracker ({@link PendingChunks}) as soon as its id is known and before its pieces leave, so GC spares it until
 * the commit. Pessimistic writes: a chunk counts as sent when all n pieces are acknowledged durable (optimistic: the m
 * data pieces; soft: acknowledged written).
 *
 * <p>The phase owns its executors: {@code io} (connects, resends, naming calls, base lookups) and a scheduler (the
 * MABw reports every 10 s, the naming keep-alive, base reads' timers). {@link #close} stops them and, unless
 * {@link #committed} was called, ends the tracker's session and forgets held bases; {@link #afterwards} lends
 * {@code io} to work done after the store returns (the catalog copy), which then stops it.
 */
final class StoreTransfer implements AutoCloseable {
  /** What the transfer sent: the pipeline's result, the new chunks with their holders, and the bytes of pieces sent. */
  record Sent(StoreResult pipeline, List<CommitRequest.NewChunk> chunks, long bytes, long nanos) {}

  private final StorePlan plan;
  private final StoreOptions o;
  private final ClientTuning tuning;
  private final TrackerClient tracker;
  private final PeerClient peers;
  private final ExecutorService io;
  private final ScheduledExecutorService timer;
  private final PieceWriter writer;
  private final PendingChunks pending;
  private final TrafficReports traffic;
  private final DeltaBases bases;
  private final List<CommitRequest.NewChunk> sent = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong sentBytes = new AtomicLong();
  private boolean committed;
  private boolean ioLent;

  /** @param basesAfterAnswer chunks coded plainly reach the host's cache after the store answers (a resident agent's) */
  StoreTransfer(TrackerClient tracker, PeerClient peers, StorePlan plan, StoreOptions o, ClientTuning tuning, boolean basesAfterAnswer) {
    this.tracker = tracker;
    this.peers = peers;
    this.plan = plan;
    this.o = o;
    this.tuning = tuning;
    // the pools' threads carry this command's context (an agent's client gets their warnings), wherever they start
    io = Executors.newCachedThreadPool(CommandContext.threads("cairn-store-io"));
    timer = Executors.newSingleThreadScheduledExecutor(CommandContext.threads("cairn-mabw"));
    try {
      writer = new PieceWriter(plan.hosts, peers::put, io, tuning, o.soft());
      traffic = new TrafficReports(tracker, o.clientId(), writer);
      long period = TrafficReports.PERIOD.toMillis();
      timer.scheduleAtFixedRate(traffic::report, period, period, TimeUnit.MILLISECONDS);
      pending = pendingChunks(o.app(), o.commitTimeout().multipliedBy(2));
      timer.scheduleWithFixedDelay(pending::refresh, 1, 1, TimeUnit.SECONDS); // retries, and a call after 2 s of silence
      bases = o.delta()
          ? new DeltaBases(DeltaBases.Previous.of(tracker, o.app(), o.node(), o.set() == null ? -1 : o.set().part()), plan.baseCache,
              o.crypto(), peers, timer, io, basesAfterAnswer)
          : null;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Runs the pipeline over {@code in} until every new chunk's pieces are acknowledged. */
  Sent run(InputStream in) throws IOException {
    long start = System.nanoTime();
    Redundancy r = o.redundancy();
    long perChunk = (long) o.chunking().maxChunk(o.chunkSize()) * r.totalFragments() / r.dataFragments() + 64L * r.totalFragments();
    int window = (int) Math.max(2L * o.threads(), Math.min(256, tuning.inFlightBytes() / perChunk));
    // chunks being read and coded are bounded by the window; those awaiting their acknowledgements by the bytes of their pieces
    StorePipeline pipeline = new StorePipeline(new ChunkCodec(o.compressor(), r, o.crypto()), o.chunking(), o.chunkSize(), o.threads(),
        window, tuning.inFlightBytes());
    StoreResult res = pipeline.storeAsync(in, this::isHeld, bases == null ? StorePipeline.BaseSource.NONE : bases,
        StorePipeline.AsyncFragmentSink.endingWith(this::send, writer::noMoreLinger));
    return new Sent(res, new ArrayList<>(sent), sentBytes.get(), System.nanoTime() - start);
  }

  /**
   * Dedup: whether the app holds the chunk. A new chunk is named to the tracker as soon as its id is known, so the call
   * runs while the chunk is coded and takes the chunks identified meanwhile with it (named once its pieces were ready, a
   * DMTCP first image took 104-204 calls for 541 chunks; now 53-57, calls starting >= 20 ms apart).
   */
  private boolean isHeld(ChunkId id) {
    if (plan.held.contains(id)) {
      return true;
    }
    pending.register(id);
    return false;
  }

  /** Sends a new chunk's pieces once it is named (optimistic: only the m data pieces; the tracker's repair adds the rest). */
  private CompletableFuture<?> send(long index, Fragment[] fragments) {
    int count = o.optimistic() ? o.redundancy().dataFragments() : o.redundancy().totalFragments();
    @SuppressWarnings("unchecked")
    CompletableFuture<String>[] acks = new CompletableFuture[count];
    return pending.register(fragments[0].chunkId()).thenCompose(named -> {
      for (int i = 0; i < count; i++) {
        acks[i] = writer.send(i, fragments[i]);
      }
      return CompletableFuture.allOf(acks);
    }).thenRun(() -> sent.add(newChunk(fragments, acks)));
  }

  /** The commit's entry for a chunk whose first {@code acks.length} pieces were acknowledged. */
  private CommitRequest.NewChunk newChunk(Fragment[] fragments, CompletableFuture<String>[] acks) {
    String[] holders = new String[fragments.length];
    String[] tags = new String[fragments.length];
    long bytes = 0;
    for (int i = 0; i < fragments.length; i++) {
      bytes += fragments[i].serializedSize();
      tags[i] = FragmentKey.tagHex(fragments[i].tag());
      if (i < acks.length) {
        holders[i] = acks[i].join();
        sentBytes.addAndGet(fragments[i].serializedSize());
      }
    }
    ChunkId base = fragments[0].compression().delta() ? bases.baseOf(fragments[0].chunkId()) : null;
    return new CommitRequest.NewChunk(fragments[0].chunkId().hex(), Arrays.asList(holders), Arrays.asList(tags), bytes,
        o.redundancy().spec(), base == null ? null : base.hex());
  }

  /** A new naming session for {@code app}'s chunks sent to this store's hosts (the version's, or its catalog record's). */
  PendingChunks pendingChunks(String app, Duration patience) {
    return new PendingChunks(tracker, peers, plan.hosts::allIds, UUID.randomUUID().toString(), app, io, patience,
        Duration.ofMillis(tuning.nameLingerMillis()));
  }

  /** The tracker's session naming this store's chunks (the commit carries it). */
  String session() {
    return pending.session();
  }

  /** Calls made to name the chunks (for the debug log). */
  int namingCalls() {
    return pending.calls();
  }

  /** What the hosts said of this store's soft writes, for the commit. */
  List<CommitRequest.SoftHold> softHolds() {
    return writer.softHolds();
  }

  PieceWriter writer() {
    return writer;
  }

  TrafficReports traffic() {
    return traffic;
  }

  /** The version is committed: the periodic reports stop, and the session is the tracker's (it ended it). */
  void committed() {
    committed = true;
    timer.shutdownNow();
  }

  /** The store has answered: chunks held back for the host's cache go there on {@code executor}. */
  void answered(Executor executor) {
    if (bases != null) {
      bases.answered(executor);
    }
  }

  /** Runs {@code work} on {@code executor} after the store returns, with this transfer's io, which stops once it is done. */
  void afterwards(Executor executor, Runnable work) {
    executor.execute(() -> {
      try {
        work.run();
      } finally {
        io.shutdown();
      }
    });
    ioLent = true;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    if (!committed) {
      if (pending != null) {
        pending.abandon();
      }
      if (bases != null) {
        bases.failed();
      }
    }
    if (!ioLent) {
      io.shutdown();
    }
  }
}
