package org.cairn.cli.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.QueuedStore;
import org.cairn.cli.context.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's background stores ({@code cairn store --async}): each image is first copied into the
 * spool directory (so the job may delete or overwrite its file at once), then stored in the
 * background, one at a time per app/node so steps keep their order. A spooled store is written
 * down before the client is answered ({@code store.json}: the {@link QueuedStore}, versioned JSON;
 * {@code grid}: the tracker group and token it stores to, 0600 in the 0700 spool, as the user's own
 * token file is), and an agent that stopped or died resumes the spooled stores when it starts again,
 * storing through the client library with that grid; a store ends by deleting its spool entry. An
 * entry it cannot run (another version's record, one that does not parse, a command line spooled by an
 * older cairn) is refused with a log line and left in place: nothing spooled is lost.
 */
final class AsyncStores implements Session.Background, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AsyncStores.class);
  private static final String STORE = "store.json";
  /** What an older cairn spooled: a command line (app, node, then argv). Refused, left in place. */
  private static final String OLD_JOB = "job";
  private static final String IMAGE = "image";
  private static final String GRID = "grid";

  private final Path spool;
  private final GridPool grids;
  private final Map<String, ExecutorService> lanes = new HashMap<>();
  private final Map<String, List<CompletableFuture<Session.Outcome>>> unreported = new HashMap<>();
  private final AtomicLong ids = new AtomicLong(System.currentTimeMillis() * 1000);
  private volatile boolean closing;

  /** @param grids the agent's grids, one lent to each store */
  AsyncStores(Path spool, GridPool grids) throws IOException {
    this.spool = org.cairn.client.keys.PrivateDirs.ensure(spool); // private copies of checkpoints: 0700
    this.grids = grids;
  }

  /**
   * Resumes the spooled stores a previous agent left; removes entries it left half-written; refuses (with a log
   * line, leaving them in place) entries it cannot run.
   */
  int resume() throws IOException {
    List<Path> entries;
    try (Stream<Path> s = Files.list(spool)) {
      entries = s.sorted().toList();
    }
    int resumed = 0;
    for (Path e : entries) {
      if (!Files.isRegularFile(e.resolve(IMAGE))) {
        LOG.info("removing {}: a spool entry left half-written", e);
        deleteTree(e);
      } else if (Files.isRegularFile(e.resolve(STORE))) {
        resumed += resume(e) ? 1 : 0;
      } else if (Files.isRegularFile(e.resolve(OLD_JOB))) {
        LOG.warn("refusing the spool entry {}: an older cairn spooled it as a command line, which this agent does not run; "
            + "it is left in place: store its image again with 'cairn store {} --app APP --node NODE' (APP and NODE are the "
            + "first two lines of its job file), then remove the entry", e, e.resolve(IMAGE));
      } else {
        LOG.info("removing {}: a spool entry left half-written", e);
        deleteTree(e);
      }
    }
    return resumed;
  }

  /** Queues the store spooled in {@code entry}; false (with a log line, the entry left in place) if it cannot run. */
  private boolean resume(Path entry) {
    QueuedStore store;
    GridPool.Key grid;
    try {
      store = QueuedStore.fromJson(Files.readAllBytes(entry.resolve(STORE))).withImage(entry.resolve(IMAGE));
      grid = gridOf(entry);
    } catch (IOException | RuntimeException x) {
      LOG.warn("refusing the spool entry {}: {}; it is left in place", entry, x.getMessage());
      return false;
    }
    if (grid == null) {
      LOG.warn("the background store of {}.{} spooled in {} names no grid and this agent has none of its own: it stays "
          + "spooled until an agent started for its grid resumes it", store.app(), store.node(), entry);
      return false;
    }
    LOG.info("resuming the background store of {}.{} to the {}, spooled in {}", store.app(), store.node(), grid, entry);
    queue(store, entry, grid);
    return true;
  }

  /** The grid a spool entry stores to: its {@code grid} file (trackers, then the token), else the agent's own (null: none). */
  private GridPool.Key gridOf(Path entry) throws IOException {
    Path file = entry.resolve(GRID);
    if (!Files.isRegularFile(file)) {
      return grids.defaultKey(); // spooled by an agent of one grid, before spool entries named theirs
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.size() < 2) {
      throw new IOException(file + " is not a grid (trackers, then the token)");
    }
    return GridPool.Key.of(org.cairn.core.api.TrackerEndpoints.parse(lines.get(0)), org.cairn.core.security.GridToken.of(lines.get(1)));
  }

  @Override
  public Path spool() {
    return spool;
  }

  @Override
  public String submit(QueuedStore store, GridPool.Key grid) throws IOException {
    Path entry = spool.resolve(String.format("%019d", ids.incrementAndGet()));
    Files.createDirectory(entry);
    boolean done = false;
    try {
      Path copy = entry.resolve(IMAGE);
      org.cairn.core.chunk.ImageSource.copy(store.image(), copy);
      QueuedStore spooled = store.withImage(copy);
      org.cairn.client.keys.PrivateDirs.writeSecret(entry.resolve(GRID), (grid.where() + "\n" + grid.token() + "\n").getBytes(StandardCharsets.UTF_8), false);
      Path tmp = entry.resolve(STORE + ".tmp");
      Files.write(tmp, spooled.toJson());
      try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      Files.move(tmp, entry.resolve(STORE), StandardCopyOption.ATOMIC_MOVE);
      queue(spooled, entry, grid);
      done = true;
      return entry.getFileName().toString();
    } finally {
      if (!done) {
        deleteTree(entry);
      }
    }
  }

  private void queue(QueuedStore store, Path entry, GridPool.Key grid) {
    String app = store.app();
    String node = store.node();
    String lane = app + "\u0000" + node;
    CompletableFuture<Session.Outcome> f;
    synchronized (this) {
      ExecutorService ex = lanes.computeIfAbsent(lane, l -> Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "store-" + app + "." + node);
        t.setDaemon(true);
        return t;
      }));
      f = CompletableFuture.supplyAsync(() -> {
        Session.Outcome o = BackgroundStore.run(store, () -> grids.borrow(grid));
        if (o.exit() == 0) {
          LOG.info("background store of {}.{} committed: {}", app, node, o.out().trim());
        } else {
          LOG.warn("background store of {}.{} failed (exit {}): {}", app, node, o.exit(), o.err().trim());
        }
        if (closing && o.exit() != 0) {
          LOG.info("the agent is stopping: the store of {}.{} stays spooled in {} and resumes at its next start", app, node, entry);
          return new Session.Outcome(app, node, 1, "", "cairn: the agent stopped before the store ended; it resumes when the agent starts\n");
        }
        try {
          deleteTree(entry);
        } catch (IOException e) {
          LOG.warn("could not remove the spool entry {}: {}", entry, e.getMessage());
        }
        return o;
      }, ex);
      List<CompletableFuture<Session.Outcome>> list = unreported.computeIfAbsent(lane, l -> new ArrayList<>());
      // successes nobody waited for are forgotten (failures stay until a wait reports them)
      list.removeIf(x -> x.isDone() && !x.isCompletedExceptionally() && x.join().exit() == 0);
      list.add(f);
    }
  }

  @Override
  public List<Session.Outcome> await(String app, String node) throws InterruptedException {
    List<CompletableFuture<Session.Outcome>> pending;
    synchronized (this) {
      pending = unreported.remove(app + "\u0000" + node);
    }
    List<Session.Outcome> out = new ArrayList<>();
    if (pending == null) {
      return out;
    }
    for (CompletableFuture<Session.Outcome> f : pending) {
      try {
        out.add(f.get());
      } catch (java.util.concurrent.ExecutionException e) {
        out.add(new Session.Outcome(app, node, 1, "", "cairn: store failed: " + e.getCause() + "\n"));
      }
    }
    return out;
  }

  /** Background stores still queued or running. */
  synchronized int pending() {
    return (int) unreported.values().stream().flatMap(List::stream).filter(f -> !f.isDone()).count();
  }

  @Override
  public synchronized void close() {
    closing = true;
    lanes.values().forEach(ExecutorService::shutdownNow);
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(x);
      }
    }
  }
}
