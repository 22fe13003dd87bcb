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
import java.util.concurrent.atomic.AtomicLong;
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
  private final AtomicLong repairedBytes = new AtomicLong();
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

  /** Bytes of pieces this peer rebuilt and placed since it started. */
  public long repairedBytes() {
    return repairedBytes.get();
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

  private void drain() {
    while (!closed && mayWork.getAsBoolean()) {
      List<RepairJob> jobs;
      try {
        jobs = tracker.claimRepairs(self, threads * 2);
      } catch (IOException e) {
        LOG.warn("claiming repair jobs failed: {}", e.getMessage());
        return;
      }
      if (jobs.isEmpty()) {
        return;
      }
      List<CompletableFuture<RepairOutcome>> running = new ArrayList<>();
      for (RepairJob job : jobs) {
        running.add(CompletableFuture.supplyAsync(() -> execute(job), workers));
      }
      List<RepairOutcome> outcomes = new ArrayList<>();
      for (CompletableFuture<RepairOutcome> f : running) {
        outcomes.add(f.join());
      }
      try {
        tracker.reportRepairs(self, outcomes);
      } catch (IOException e) {
        // the tracker times the jobs out and plans them again; what was written becomes garbage
        LOG.warn("reporting {} repairs failed: {}", outcomes.size(), e.getMessage());
        return;
      }
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
          repairedBytes.addAndGet(rebuilt[j].serializedSize());
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

  /** Reads verified pieces from the sources until m are in hand. */
  private Fragment[] gather(RepairJob job, ChunkId id) throws IOException, InterruptedException {
    int n = job.sources().stream().mapToInt(RepairJob.Piece::index).max().orElse(0) + 1;
    n = Math.max(n, job.targets().stream().mapToInt(RepairJob.Piece::index).max().orElse(0) + 1);
    Fragment[] got = new Fragment[n];
    int have = 0;
    int m = Integer.MAX_VALUE;
    List<String> problems = new ArrayList<>();
    for (RepairJob.Piece s : job.sources()) {
      if (have >= m) {
        break;
      }
      FragmentKey key = new FragmentKey(id, s.index());
      try {
        byte[] bytes = s.peer().equals(self) ? store.get(key) : fetch(s, key);
        if (bytes == null) {
          problems.add(s.peer() + " does not hold piece " + s.index());
          reportMissing(s, key);
          continue;
        }
        throttle.acquire(bytes.length);
        Fragment f = Fragment.parse(bytes);
        if (!f.chunkId().equals(id) || f.index() != s.index()) {
          problems.add(s.peer() + " sent another fragment for piece " + s.index());
          continue;
        }
        got[s.index()] = f;
        have++;
        m = f.dataFragments();
      } catch (CorruptDataException e) {
        problems.add(s.peer() + " piece " + s.index() + " is corrupt: " + e.getMessage());
      } catch (IOException e) {
        problems.add(s.peer() + " piece " + s.index() + ": " + e.getMessage());
      }
    }
    if (have == 0 || have < m) {
      throw new IOException("could not read enough pieces of " + id.shortHex() + " (" + have + "): " + String.join("; ", problems));
    }
    return got;
  }

  /** The fragment's bytes from a remote source, or null if it says it does not hold it. */
  private byte[] fetch(RepairJob.Piece s, FragmentKey key) throws IOException, InterruptedException {
    Frame answer = call(s.address(), FrameType.GET, Unpooled.wrappedBuffer(key.toBytes()));
    try {
      if (answer.type() == FrameType.FRAGMENT) {
        return ByteBufUtil.getBytes(answer.payload());
      }
      String why = answer.payload().toString(StandardCharsets.UTF_8);
      if (answer.type() == FrameType.NOT_FOUND && why.startsWith("not held")) {
        return null;
      }
      throw new IOException(answer.type() + " " + why);
    } finally {
      answer.release();
    }
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
    ByteBuf batch = Unpooled.buffer(bytes.length + 16);
    FragmentBatch.encode(List.of(bytes), batch);
    return connection(t.address()).thenCompose(c -> c.call(FrameType.PUT, batch)).handle((answer, error) -> {
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

  private Frame call(String address, FrameType type, ByteBuf payload) throws IOException, InterruptedException {
    CompletableFuture<Frame> f = connection(address).thenCompose(c -> c.call(type, payload));
    try {
      return f.get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      connections.remove(address);
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      connections.remove(address);
      throw new IOException("no answer from " + address + " within " + timeout.multipliedBy(2));
    }
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
