package org.cairn.peer.repair;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.repair.RepairClaim;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.net.PeerClient;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.ChunkReader;
import org.cairn.peer.load.Throttle;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Executes the tracker's repair jobs on this peer (ARCHITECTURE.md, "Repair"): no client needs to be online.
 * When a heartbeat answer says jobs wait, the worker claims a batch of them (one chunk each, bounded by the bytes they
 * rebuild: RepairLimits.batchBytes), and rebuilds the batch's chunks in parallel on `threads` workers (ChunkRebuild:
 * m pieces of each through the ChunkReader that fetch and verify use, FIRST_M, holders the tracker lists DOWN last,
 * pieces this peer holds from its own store; checked and re-coded once by SourceCheck, with ChunkDecoder.rebuild, which
 * checks the chunk id; the lost pieces are taken from that codeword). Then every rebuilt piece for one target goes in
 * one PUT, one durable write there (TargetWrites), and the batch's outcomes go to the tracker in one report: a chunk
 * that failed is reported failed and planned again, the others commit. Up to BATCHES_IN_FLIGHT batches run at once,
 * so one is read while another is written. It claims again until the queue has nothing for it. Bytes read pass the
 * download throttle and bytes sent the upload one (RepairLimits: inside the donor's network caps). Sources whose
 * piece is missing or corrupt are reported as bad, so the index stops naming them.
 */
public final class RepairWorker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RepairWorker.class);
  /** Batches claimed and running at once: one is read and rebuilt while the other is written. */
  static final int BATCHES_IN_FLIGHT = 2;

  private final String self;
  private final TrackerClient tracker;
  private final FragmentStore store;
  private final RepairLimits limits;
  private final Duration timeout;
  private final BooleanSupplier mayWork;
  private final ExecutorService loop = Executors.newSingleThreadExecutor(r -> daemon(r, "repair-loop"));
  private final ExecutorService batches = Executors.newFixedThreadPool(BATCHES_IN_FLIGHT, r -> daemon(r, "repair-batch"));
  private final ExecutorService workers;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "repair-timer"));
  private final BadPieceLog bad = new BadPieceLog();
  private final ChunkReader.PieceSource source;
  private final ChunkRebuild rebuild;
  private final TargetWrites writes;
  /** Bytes this peer read and sent for repairs since it started (its heartbeat reports them). */
  private final AtomicLong trafficBytes = new AtomicLong();
  /**
   * The reader of this pass over the tracker's jobs: a new one each pass, so a source listed DOWN that could not be
   * reached is not asked again by the rest of the pass (one failed connection, not one per chunk) but is by the next.
   */
  private volatile ChunkReader reader;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile boolean closed;
  /** Told the keys of rebuilt pieces stored in this peer's own store (it is their target). */
  private volatile Consumer<List<FragmentKey>> storedLocally = keys -> { };
  /** Told when a pass over the tracker's jobs starts and ends (the data server gives repair its share of a cap meanwhile). */
  private volatile Consumer<Boolean> active = running -> { };

  /** With one throttle for both directions and the default batch (tests, tools). */
  public RepairWorker(String self, TrackerClient tracker, FragmentStore store, PeerClient peers, int threads, Throttle throttle,
      Duration timeout, BooleanSupplier mayWork) {
    this(self, tracker, store, peers, new RepairLimits(threads, throttle, throttle, RepairLimits.DEFAULT_BATCH_BYTES), timeout,
        mayWork);
  }

  /**
   * @param self this peer's id (pieces it holds are read from {@code store})
   * @param peers the process's data-plane client; not closed here
   * @param timeout how long a peer may take to answer; a chunk's read gives up after three times it
   */
  public RepairWorker(String self, TrackerClient tracker, FragmentStore store, PeerClient peers, RepairLimits limits,
      Duration timeout, BooleanSupplier mayWork) {
    this.self = self;
    this.tracker = tracker;
    this.store = store;
    this.limits = limits;
    this.timeout = timeout;
    this.mayWork = mayWork;
    this.workers = Executors.newFixedThreadPool(limits.threads(), r -> daemon(r, "repair-worker"));
    ChunkReader.PieceSource network = ChunkReader.PieceSource.of(peers);
    this.source = (holder, key) -> self.equals(holder.id()) ? local(key) : network.get(holder, key);
    this.reader = newReader();
    Throttle down = counted(limits.download());
    this.rebuild = new ChunkRebuild(self, tracker, peers, bad, new SourceCheck(source, bad, timeout), down);
    this.writes = new TargetWrites(self, store, peers, counted(limits.upload()), timeout, keys -> storedLocally.accept(keys));
  }

  /** A throttle that also counts what passes it as repair traffic. */
  private Throttle counted(Throttle t) {
    return t.counting(trafficBytes::addAndGet);
  }

  /** Bytes read and sent for repairs since this worker started. */
  public long trafficBytes() {
    return trafficBytes.get();
  }

  /** Tells {@code listener} of each rebuilt piece this peer stored durably as its own target. */
  public void onStoredLocally(Consumer<List<FragmentKey>> listener) {
    this.storedLocally = java.util.Objects.requireNonNull(listener);
  }

  private ChunkReader newReader() {
    return new ChunkReader(source, ChunkReader.Mode.FIRST_M, timeout.multipliedBy(3), timer, bad);
  }

  /** Jobs are waiting at the tracker: claim and run them unless already doing so. */
  public void wake() {
    if (closed || !mayWork.getAsBoolean() || !running.compareAndSet(false, true)) {
      return;
    }
    loop.execute(() -> {
      active.accept(true);
      try {
        drain();
      } finally {
        active.accept(false);
        running.set(false);
      }
    });
  }

  /** Tells {@code listener} when this worker starts (true) and stops (false) running repairs. */
  public void onActive(Consumer<Boolean> listener) {
    this.active = java.util.Objects.requireNonNull(listener);
  }

  /*
   * Keeps up to BATCHES_IN_FLIGHT batches running: claims one whenever a slot is free, reports its outcomes together as
   * soon as it finishes (freeing its jobs at the tracker too), and claims again; returns when the tracker has nothing
   * for this peer and nothing is running.
   */
  private void drain() {
    reader = newReader();
    Semaphore slots = new Semaphore(BATCHES_IN_FLIGHT);
    BlockingQueue<Boolean> finished = new LinkedBlockingQueue<>();
    try {
      while (!closed && mayWork.getAsBoolean()) {
        if (slots.availablePermits() == 0) {
          finished.poll(timeout.toMillis(), TimeUnit.MILLISECONDS); // wait for a batch to finish
          continue;
        }
        List<RepairJob> jobs;
        try {
          jobs = tracker.claimRepairs(self, RepairClaim.MAX_BATCH_JOBS, limits.batchBytes()).jobs();
          jobs = jobs == null ? List.of() : jobs;
        } catch (IOException e) {
          LOG.warn("claiming repair jobs failed: {}", e.getMessage());
          break;
        }
        if (jobs.isEmpty()) {
          if (slots.availablePermits() == BATCHES_IN_FLIGHT) {
            break; // nothing running and nothing to claim
          }
          finished.poll(timeout.toMillis(), TimeUnit.MILLISECONDS); // wait for one to finish, then ask again
          continue;
        }
        slots.acquire();
        List<RepairJob> batch = jobs;
        batches.execute(() -> {
          try {
            tracker.reportRepairs(self, executeAll(batch));
          } catch (IOException e) {
            // the tracker times the jobs out and plans them again; what was written becomes garbage
            LOG.warn("reporting {} repairs failed: {}", batch.size(), e.getMessage());
          } finally {
            slots.release();
            finished.offer(Boolean.TRUE);
          }
        });
      }
      slots.acquire(BATCHES_IN_FLIGHT); // let running batches report before the loop ends
      slots.release(BATCHES_IN_FLIGHT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  /** Runs one job; never throws (a failure is an outcome with an error). */
  RepairOutcome execute(RepairJob job) {
    return executeAll(List.of(job)).get(0);
  }

  /**
   * Runs a batch: each chunk rebuilt on the workers, then every rebuilt piece for one target in one PUT. Returns an
   * outcome per job, in the batch's order; never throws (a failure is an outcome with an error, that job's alone).
   */
  List<RepairOutcome> executeAll(List<RepairJob> jobs) {
    ChunkReader reader = this.reader;
    List<CompletableFuture<ChunkRebuild.Rebuilt>> rebuilds = new ArrayList<>();
    for (RepairJob job : jobs) {
      rebuilds.add(CompletableFuture.supplyAsync(() -> {
        try {
          return rebuild.run(job, reader);
        } catch (IOException | InterruptedException e) {
          throw new CompletionException(e);
        }
      }, workers));
    }
    RepairOutcome[] outcomes = new RepairOutcome[jobs.size()];
    List<TargetWrites.Piece> pieces = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      RepairJob job = jobs.get(i);
      try {
        ChunkRebuild.Rebuilt r = rebuilds.get(i).join();
        for (int j = 0; j < r.pieces().length; j++) {
          pieces.add(new TargetWrites.Piece(job, job.targets().get(j), r.pieces()[j]));
        }
      } catch (CompletionException | java.util.concurrent.CancellationException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        String why = cause instanceof InterruptedException ? "interrupted"
            : cause.getMessage() == null ? cause.toString() : cause.getMessage();
        LOG.info("repair {} failed: {}", job.id(), why);
        outcomes[i] = new RepairOutcome(job.id(), List.of(), why, ChunkRebuild.unreachable(job, reader));
      }
    }
    Map<TargetWrites.Piece, String> failed;
    try {
      failed = writes.place(pieces);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failed = new java.util.IdentityHashMap<>();
      for (TargetWrites.Piece p : pieces) {
        failed.put(p, "interrupted");
      }
    }
    return outcomes(jobs, outcomes, pieces, failed);
  }

  /** Each rebuilt job's outcome from its pieces' results: what landed, and why the rest did not. */
  private static List<RepairOutcome> outcomes(List<RepairJob> jobs, RepairOutcome[] outcomes, List<TargetWrites.Piece> pieces,
      Map<TargetWrites.Piece, String> failed) {
    Map<String, List<RepairJob.Piece>> placed = new HashMap<>();
    Map<String, List<String>> failures = new HashMap<>();
    for (TargetWrites.Piece p : pieces) {
      String problem = failed.get(p);
      if (problem == null) {
        placed.computeIfAbsent(p.job().id(), k -> new ArrayList<>()).add(p.target());
      } else {
        failures.computeIfAbsent(p.job().id(), k -> new ArrayList<>())
            .add("piece " + p.target().index() + " on " + p.target().peer() + ": " + problem);
      }
    }
    List<RepairOutcome> out = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      String id = jobs.get(i).id();
      List<String> f = failures.get(id);
      out.add(outcomes[i] != null ? outcomes[i]
          : new RepairOutcome(id, placed.getOrDefault(id, List.of()), f == null ? null : String.join("; ", f)));
    }
    return out;
  }

  /** A piece this peer holds comes from its own store, verified as one from the network would be. */
  private CompletableFuture<PieceReply> local(FragmentKey key) {
    byte[] bytes;
    try {
      bytes = store.get(key);
    } catch (CorruptDataException e) {
      return CompletableFuture.completedFuture(new PieceReply.Missing("corrupt: " + e.getMessage())); // as the data server says it
    } catch (IOException e) {
      return CompletableFuture.completedFuture(new PieceReply.Failed("local store: " + e.getMessage()));
    }
    if (bytes == null) {
      return CompletableFuture.completedFuture(new PieceReply.Missing("not held"));
    }
    Frame f = Frame.of(FrameType.FRAGMENT, 0, bytes);
    try {
      return CompletableFuture.completedFuture(PieceReply.decode(f, key));
    } finally {
      f.release();
    }
  }

  @Override
  public void close() {
    closed = true;
    loop.shutdownNow();
    batches.shutdownNow();
    workers.shutdownNow();
    try {
      loop.awaitTermination(5, TimeUnit.SECONDS);
      batches.awaitTermination(5, TimeUnit.SECONDS);
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    timer.shutdownNow();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
