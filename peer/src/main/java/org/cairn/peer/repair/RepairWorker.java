package org.cairn.peer.repair;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.LocatedChunk;
import org.cairn.core.api.repair.RepairJob;
import org.cairn.core.api.repair.RepairOutcome;
import org.cairn.core.availability.HostState;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerClient;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.ChunkDecoder;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.PieceReply;
import org.cairn.core.protocol.PutReply;
import org.cairn.core.read.BadPieceLog;
import org.cairn.core.read.ChunkReader;
import org.cairn.core.read.Pieces;
import org.cairn.peer.load.Throttle;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Executes the tracker's repair jobs on this peer (ARCHITECTURE.md, "Repair"): no client needs to be online.
 * When a heartbeat answer says jobs wait, the worker claims a few, and for each reads m pieces of
 * the chunk through the ChunkReader that fetch and verify use (FIRST_M: m sources, one more for each
 * that fails, holders the tracker lists DOWN last; pieces this peer holds come from its own store),
 * rebuilds the missing pieces with ChunkCodec.rebuild (which checks the chunk id), stores each durably
 * on its target through the process's PeerClient (locally when the target is this peer), and reports
 * which landed. Before rebuilding, the pieces read are checked to be the chunk's (SourceCheck: the
 * chunk's id, the tags the client recorded for every piece, and for a sealed chunk an extra piece to
 * compare with); a source that served a piece with intact CRCs that is not the chunk's is found by
 * reading the others, and reported. It claims
 * again until the queue has nothing for it. Repair traffic (bytes read and written) passes through a
 * throttle. Sources whose piece is missing or corrupt are reported as bad, so the index stops naming
 * them.
 */
public final class RepairWorker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RepairWorker.class);

  private final String self;
  private final TrackerClient tracker;
  private final FragmentStore store;
  private final PeerClient peers;
  private final Throttle throttle;
  private final Duration timeout;
  private final BooleanSupplier mayWork;
  private final int threads;
  private final ExecutorService loop = Executors.newSingleThreadExecutor(r -> daemon(r, "repair-loop"));
  private final ExecutorService workers;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "repair-timer"));
  private final BadPieceLog bad = new BadPieceLog();
  private final ChunkReader.PieceSource source;
  /** Checks the pieces read are the chunk's, reading more from the sources when they are not, and finds the bad ones. */
  private final SourceCheck check;
  /**
   * The reader of this pass over the tracker's jobs: a new one each pass, so a source listed DOWN that could not be
   * reached is not asked again by the rest of the pass (one failed connection, not one per chunk) but is by the next.
   */
  private volatile ChunkReader reader;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile boolean closed;
  /** Told the keys of rebuilt pieces stored in this peer's own store (it is their target). */
  private volatile java.util.function.Consumer<List<FragmentKey>> storedLocally = keys -> { };

  /**
   * @param self this peer's id (pieces it holds are read from {@code store})
   * @param peers the process's data-plane client; not closed here
   * @param timeout how long a peer may take to answer; a chunk's read gives up after three times it
   */
  public RepairWorker(String self, TrackerClient tracker, FragmentStore store, PeerClient peers, int threads, Throttle throttle,
      Duration timeout, BooleanSupplier mayWork) {
    this.self = self;
    this.tracker = tracker;
    this.store = store;
    this.peers = peers;
    this.threads = threads;
    this.throttle = throttle;
    this.timeout = timeout;
    this.mayWork = mayWork;
    this.workers = Executors.newFixedThreadPool(threads, r -> daemon(r, "repair-worker"));
    ChunkReader.PieceSource network = ChunkReader.PieceSource.of(peers);
    this.source = (holder, key) -> self.equals(holder.id()) ? local(key) : network.get(holder, key);
    this.reader = newReader();
    this.check = new SourceCheck(source, bad, timeout);
  }

  /** Tells {@code listener} of each rebuilt piece this peer stored durably as its own target. */
  public void onStoredLocally(java.util.function.Consumer<List<FragmentKey>> listener) {
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
      try {
        drain();
      } finally {
        running.set(false);
      }
    });
  }

  /*
   * Keeps up to 2 x threads jobs in flight: claims as many as there are free slots, reports each job
   * as soon as it finishes (freeing its slot at the tracker too), and claims again; returns when the
   * tracker has nothing for this peer and nothing is running.
   */
  private void drain() {
    reader = newReader();
    int capacity = threads * 2;
    java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(capacity);
    java.util.concurrent.BlockingQueue<Boolean> finished = new java.util.concurrent.LinkedBlockingQueue<>();
    try {
      while (!closed && mayWork.getAsBoolean()) {
        int free = slots.availablePermits();
        if (free == 0) {
          slots.acquire(); // wait for a job to finish
          slots.release();
          continue;
        }
        List<RepairJob> jobs;
        try {
          jobs = tracker.claimRepairs(self, free).jobs();
          jobs = jobs == null ? List.of() : jobs;
        } catch (IOException e) {
          LOG.warn("claiming repair jobs failed: {}", e.getMessage());
          break;
        }
        if (jobs.isEmpty()) {
          if (slots.availablePermits() == capacity) {
            break; // nothing running and nothing to claim
          }
          finished.poll(timeout.toMillis(), TimeUnit.MILLISECONDS); // wait for one to finish, then ask again
          continue;
        }
        for (RepairJob job : jobs) {
          slots.acquire();
          CompletableFuture.supplyAsync(() -> execute(job), workers).whenComplete((outcome, error) -> {
            try {
              if (outcome != null) {
                tracker.reportRepairs(self, List.of(outcome));
              }
            } catch (IOException e) {
              // the tracker times the job out and plans it again; what was written becomes garbage
              LOG.warn("reporting repair {} failed: {}", job.id(), e.getMessage());
            } finally {
              slots.release();
              finished.offer(Boolean.TRUE);
            }
          });
        }
      }
      slots.acquire(capacity); // let running jobs report before the loop ends
      slots.release(capacity);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  /** Runs one job; never throws (a failure is an outcome with an error). */
  RepairOutcome execute(RepairJob job) {
    List<RepairJob.Piece> placed = new ArrayList<>();
    ChunkReader reader = this.reader;
    try {
      org.cairn.core.read.Tickets.present(peers, job.tickets()); // READ on the sources, WRITE on the targets
      LocatedChunk chunk = job.located();
      ChunkId id = chunk.chunkId();
      Pieces pieces = gather(reader, chunk);
      Fragment[] from;
      try {
        from = check.verified(job, pieces.fragments()); // sources whose pieces are not the chunk's are reported
      } finally {
        bad.flush(tracker, self);
      }
      int[] indices = job.targets().stream().mapToInt(RepairJob.Piece::index).toArray();
      Fragment[] rebuilt = ChunkDecoder.rebuild(id, from, indices);
      for (int j = 0; j < rebuilt.length; j++) {
        // a rebuilt piece is byte for byte the one lost, so it has its tag; anything else would be stored under a key no one reads
        if (rebuilt[j].tag() != job.tag(indices[j])) {
          throw new IOException("rebuilt piece " + indices[j] + " of " + id.shortHex() + " has tag " + FragmentKey.tagHex(rebuilt[j].tag())
              + ", the index says " + job.tags().get(indices[j]));
        }
      }
      List<String> failures = new ArrayList<>();
      List<CompletableFuture<String>> sends = new ArrayList<>();
      for (int j = 0; j < rebuilt.length; j++) {
        throttle.acquire(rebuilt[j].serializedSize());
        sends.add(place(job.targets().get(j), rebuilt[j]));
      }
      for (int j = 0; j < rebuilt.length; j++) {
        String problem = await(sends.get(j));
        if (problem == null) {
          placed.add(job.targets().get(j));
        } else {
          failures.add("piece " + job.targets().get(j).index() + " on " + job.targets().get(j).peer() + ": " + problem);
        }
      }
      return new RepairOutcome(job.id(), placed, failures.isEmpty() ? null : String.join("; ", failures));
    } catch (IOException | RuntimeException e) {
      LOG.info("repair {} failed: {}", job.id(), e.getMessage());
      return new RepairOutcome(job.id(), placed, e.getMessage() == null ? e.toString() : e.getMessage(), unreachable(job, reader));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new RepairOutcome(job.id(), placed, "interrupted");
    }
  }

  /** The job's sources listed DOWN that the reader asked and could not reach. */
  private static List<String> unreachable(RepairJob job, ChunkReader reader) {
    List<String> out = new ArrayList<>();
    for (RepairJob.Piece s : job.sources()) {
      if (HostState.DOWN.name().equals(s.state()) && s.address() != null && reader.unreachable(s.address())) {
        out.add(s.peer());
      }
    }
    return out;
  }

  /** Reads m verified pieces through the one read path; pieces found bad are reported for repair. */
  private Pieces gather(ChunkReader reader, LocatedChunk chunk) throws IOException, InterruptedException {
    Pieces pieces;
    try {
      pieces = reader.read(chunk).get();
    } catch (ExecutionException e) {
      throw new IOException("reading " + chunk.chunkId().shortHex() + " failed: " + e.getCause(), e.getCause());
    } finally {
      bad.flush(tracker, self);
    }
    long bytes = 0;
    for (Fragment f : pieces.fragments()) {
      bytes += f == null ? 0 : f.serializedSize();
    }
    throttle.acquire(bytes);
    if (!pieces.enough()) {
      throw new IOException("could not read enough pieces of " + pieces.describe());
    }
    return pieces;
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

  /** Stores a rebuilt piece on its target; the future yields null on success or the problem. */
  private CompletableFuture<String> place(RepairJob.Piece t, Fragment f) {
    byte[] bytes = f.toBytes();
    if (t.peer().equals(self)) {
      try {
        store.putAll(List.of(bytes));
        storedLocally.accept(List.of(FragmentKey.of(f)));
        return CompletableFuture.completedFuture(null);
      } catch (IOException e) {
        return CompletableFuture.completedFuture("local store failed: " + e.getMessage());
      }
    }
    ByteBuf batch = Unpooled.buffer(bytes.length + 16);
    FragmentBatch.encode(List.of(bytes), batch);
    return peers.put(t.address(), batch).handle((reply, error) -> {
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
    try {
      return f.get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return e.getCause().getMessage();
    } catch (TimeoutException e) {
      return "no answer within " + timeout.multipliedBy(2);
    }
  }

  @Override
  public void close() {
    closed = true;
    loop.shutdownNow();
    workers.shutdownNow();
    try {
      loop.awaitTermination(5, TimeUnit.SECONDS);
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
