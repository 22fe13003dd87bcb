package org.cairn.peer.repair;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.cairn.core.CorruptDataException;
import org.cairn.core.api.RepairJob;
import org.cairn.core.api.RepairOutcome;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.net.PeerConnection;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.protocol.FragmentBatch;
import org.cairn.core.protocol.FragmentKey;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameType;
import org.cairn.core.protocol.Refusal;
import org.cairn.core.security.GridToken;
import org.cairn.peer.Throttle;
import org.cairn.peer.heartbeat.TrackerClient;
import org.cairn.peer.store.FragmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Executes the tracker's repair jobs on this peer (ARCHITECTURE §6): no client needs to be online.
 * When a heartbeat answer says jobs wait, the worker claims a few, and for each reads m pieces from
 * the sources (in the tracker's order, moving to the next source when one fails), rebuilds the
 * missing pieces with ChunkCodec.rebuild (which checks the chunk id), stores each durably on its
 * target (locally when the target is this peer), and reports which landed. It claims again until the
 * queue has nothing for it. Repair traffic (bytes read and written) passes through a throttle.
 * A source that answers "not held" is reported as a bad fragment, so the index stops naming it.
 */
public final class RepairWorker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RepairWorker.class);

  private final String self;
  private final TrackerClient tracker;
  private final FragmentStore store;
  private final GridToken token;
  private final Throttle throttle;
  private final Duration timeout;
  private final BooleanSupplier mayWork;
  private final int threads;
  private final EventLoopGroup group = new NioEventLoopGroup(1, (java.util.concurrent.ThreadFactory) r -> daemon(r, "repair-io"));
  private final ExecutorService loop = Executors.newSingleThreadExecutor(r -> daemon(r, "repair-loop"));
  private final ExecutorService workers;
  private final Map<String, CompletableFuture<PeerConnection>> connections = new ConcurrentHashMap<>();
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile boolean closed;

  public RepairWorker(String self, TrackerClient tracker, FragmentStore store, GridToken token, int threads, Throttle throttle,
      Duration timeout, BooleanSupplier mayWork) {
    this.self = self;
    this.tracker = tracker;
    this.store = store;
    this.token = token;
    this.threads = threads;
    this.throttle = throttle;
    this.timeout = timeout;
    this.mayWork = mayWork;
    this.workers = Executors.newFixedThreadPool(threads, r -> daemon(r, "repair-worker"));
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
          jobs = tracker.claimRepairs(self, free);
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
    try {
      ChunkId id = ChunkId.parse(job.chunk());
      Fragment[] pieces = gather(job, id);
      int[] indices = job.targets().stream().mapToInt(RepairJob.Piece::index).toArray();
      Fragment[] rebuilt = ChunkCodec.rebuild(id, pieces, indices);
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
      return new RepairOutcome(job.id(), placed, e.getMessage() == null ? e.toString() : e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new RepairOutcome(job.id(), placed, "interrupted");
    }
  }

  /** Reads verified pieces from the sources, m at a time in parallel, until m are in hand. */
  private Fragment[] gather(RepairJob job, ChunkId id) throws IOException, InterruptedException {
    int n = job.sources().stream().mapToInt(RepairJob.Piece::index).max().orElse(0) + 1;
    n = Math.max(n, job.targets().stream().mapToInt(RepairJob.Piece::index).max().orElse(0) + 1);
    Fragment[] got = new Fragment[n];
    int have = 0;
    int m = job.redundancy() == null ? 1 : org.cairn.core.erasure.Redundancy.parse(job.redundancy()).dataFragments();
    List<String> problems = new ArrayList<>();
    java.util.Deque<RepairJob.Piece> remaining = new java.util.ArrayDeque<>(job.sources());
    while (have < m && !remaining.isEmpty()) {
      List<RepairJob.Piece> round = new ArrayList<>();
      List<CompletableFuture<byte[]>> reads = new ArrayList<>();
      while (round.size() < m - have && !remaining.isEmpty()) {
        RepairJob.Piece s = remaining.pollFirst();
        round.add(s);
        reads.add(read(s, new FragmentKey(id, s.index(), job.tag(s.index()))));
      }
      for (int j = 0; j < round.size(); j++) {
        RepairJob.Piece s = round.get(j);
        try {
          byte[] bytes = reads.get(j).get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
          if (bytes == null) {
            problems.add(s.peer() + " does not hold piece " + s.index());
            reportMissing(s, new FragmentKey(id, s.index(), job.tag(s.index())));
            continue;
          }
          throttle.acquire(bytes.length);
          Fragment f = Fragment.parse(bytes);
          if (!f.chunkId().equals(id) || f.index() != s.index() || f.tag() != job.tag(s.index())) {
            problems.add(s.peer() + " sent another fragment for piece " + s.index());
            continue;
          }
          got[s.index()] = f;
          have++;
          m = f.dataFragments();
        } catch (CorruptDataException e) {
          problems.add(s.peer() + " piece " + s.index() + " is corrupt: " + e.getMessage());
        } catch (ExecutionException e) {
          problems.add(s.peer() + " piece " + s.index() + ": " + e.getCause().getMessage());
        } catch (TimeoutException e) {
          problems.add(s.peer() + " piece " + s.index() + ": no answer within " + timeout.multipliedBy(2));
        }
      }
    }
    if (have == 0 || have < m) {
      throw new IOException("could not read enough pieces of " + id.shortHex() + " (" + have + " of " + m + "): "
          + String.join("; ", problems));
    }
    return got;
  }

  /** One source piece: from the local store when this peer holds it, else over the network. */
  private CompletableFuture<byte[]> read(RepairJob.Piece s, FragmentKey key) {
    if (s.peer().equals(self)) {
      try {
        return CompletableFuture.completedFuture(store.get(key));
      } catch (IOException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
    return connection(s.address()).thenCompose(c -> c.call(FrameType.GET, Unpooled.wrappedBuffer(key.toBytes()))).thenApply(answer -> {
      try {
        if (answer.type() == FrameType.FRAGMENT) {
          return ByteBufUtil.getBytes(answer.payload());
        }
        String why = answer.payload().toString(StandardCharsets.UTF_8);
        if (answer.type() == FrameType.NOT_FOUND && why.startsWith("not held")) {
          return null;
        }
        throw new java.util.concurrent.CompletionException(new IOException(answer.type() + " " + why));
      } finally {
        answer.release();
      }
    }).whenComplete((b, e) -> {
      if (e != null) {
        connections.remove(s.address());
      }
    });
  }

  private void reportMissing(RepairJob.Piece s, FragmentKey key) {
    try {
      tracker.reportBad(s.peer(), Map.of(HexFormat.of().formatHex(key.toBytes()), "not held (found by repair)"), self);
    } catch (IOException e) {
      LOG.warn("could not report missing piece {} on {}: {}", key, s.peer(), e.getMessage());
    }
  }

  /** Stores a rebuilt piece on its target; the future yields null on success or the problem. */
  private CompletableFuture<String> place(RepairJob.Piece t, Fragment f) {
    byte[] bytes = f.toBytes();
    if (t.peer().equals(self)) {
      try {
        store.putAll(List.of(bytes));
        return CompletableFuture.completedFuture(null);
      } catch (IOException e) {
        return CompletableFuture.completedFuture("local store failed: " + e.getMessage());
      }
    }
    // the payload is made only once connected: a failed connect leaves no buffer to release
    return connection(t.address()).thenCompose(c -> {
      ByteBuf batch = Unpooled.buffer(bytes.length + 16);
      FragmentBatch.encode(List.of(bytes), batch);
      return c.call(FrameType.PUT, batch);
    }).handle((answer, error) -> {
      if (error != null) {
        connections.remove(t.address());
        return error.getMessage();
      }
      try {
        if (answer.type() == FrameType.PUT_OK) {
          return null;
        }
        return answer.type() == FrameType.REFUSED ? "refused (" + Refusal.describe(answer.payload()) + ")"
            : answer.type() + " " + answer.payload().toString(StandardCharsets.UTF_8);
      } finally {
        answer.release();
      }
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

  private CompletableFuture<PeerConnection> connection(String address) {
    CompletableFuture<PeerConnection> c = connections.computeIfAbsent(address, a -> PeerConnection.connect(group, a, token, timeout));
    if (c.isDone() && !c.isCompletedExceptionally() && !c.join().isActive()) {
      connections.remove(address, c);
      return connection(address);
    }
    return c;
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
    for (CompletableFuture<PeerConnection> c : connections.values()) {
      c.thenAccept(PeerConnection::close);
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
