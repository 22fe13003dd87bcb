package org.cairn.cli.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
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
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's background stores ({@code cairn store --async}): each image is first copied into the
 * spool directory (so the job may delete or overwrite its file at once), then stored in the
 * background, one at a time per app/node so steps keep their order. A spooled store is written
 * down before the client is answered ({@code job}: its command line; {@code grid}: the tracker group
 * and token it stores to, 0600 in the 0700 spool, as the user's own token file is), and an agent that
 * stopped or died resumes the spooled stores when it starts again; a store ends by deleting its spool entry.
 */
final class AsyncStores implements Session.Background, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AsyncStores.class);
  private static final String JOB = "job";
  private static final String IMAGE = "image";
  private static final String GRID = "grid";

  private final Path spool;
  private final GridPool grids;
  private final Root root;
  private final Map<String, ExecutorService> lanes = new HashMap<>();
  private final Map<String, List<CompletableFuture<Session.Outcome>>> unreported = new HashMap<>();
  private final AtomicLong ids = new AtomicLong(System.currentTimeMillis() * 1000);
  private volatile boolean closing;

  /** @param grids the agent's grids, one lent to each store */
  AsyncStores(Path spool, GridPool grids, Root root) throws IOException {
    this.root = root;
    this.spool = org.cairn.client.keys.PrivateDirs.ensure(spool); // private copies of checkpoints: 0700
    this.grids = grids;
  }

  /** Resumes the spooled stores a previous agent left; removes entries it left half-written. */
  int resume() throws IOException {
    List<Path> entries;
    try (Stream<Path> s = Files.list(spool)) {
      entries = s.sorted().toList();
    }
    int resumed = 0;
    for (Path e : entries) {
      Path job = e.resolve(JOB);
      if (Files.isRegularFile(job) && Files.isRegularFile(e.resolve(IMAGE))) {
        List<String> lines = Files.readAllLines(job, StandardCharsets.UTF_8);
        GridPool.Key grid = gridOf(e);
        if (lines.size() >= 3 && grid == null) {
          LOG.warn("the background store of {}.{} spooled in {} names no grid and this agent has none of its own: it stays "
              + "spooled until an agent started for its grid resumes it", lines.get(0), lines.get(1), e);
          continue;
        }
        if (lines.size() >= 3) {
          LOG.info("resuming the background store of {}.{} to the {}, spooled in {}", lines.get(0), lines.get(1), grid, e);
          queue(lines.get(0), lines.get(1), e, lines.subList(2, lines.size()), grid);
          resumed++;
          continue;
        }
      }
      LOG.info("removing {}: a spool entry left half-written", e);
      deleteTree(e);
    }
    return resumed;
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
  public String submit(String app, String node, Path image, List<String> args, GridPool.Key grid) throws IOException {
    Path entry = spool.resolve(String.format("%019d", ids.incrementAndGet()));
    Files.createDirectory(entry);
    boolean done = false;
    try {
      Path copy = entry.resolve(IMAGE);
      org.cairn.core.chunk.ImageSource.copy(image, copy);
      List<String> command = new ArrayList<>();
      command.add(args.get(0));
      command.add(copy.toString());
      command.addAll(args.subList(1, args.size()));
      List<String> lines = new ArrayList<>(List.of(app, node));
      lines.addAll(command);
      org.cairn.client.keys.PrivateDirs.writeSecret(entry.resolve(GRID), (grid.where() + "\n" + grid.token() + "\n").getBytes(StandardCharsets.UTF_8), false);
      Path tmp = entry.resolve(JOB + ".tmp");
      Files.write(tmp, lines, StandardCharsets.UTF_8);
      try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      Files.move(tmp, entry.resolve(JOB), StandardCopyOption.ATOMIC_MOVE);
      queue(app, node, entry, command, grid);
      done = true;
      return entry.getFileName().toString();
    } finally {
      if (!done) {
        deleteTree(entry);
      }
    }
  }

  private void queue(String app, String node, Path entry, List<String> command, GridPool.Key grid) {
    String lane = app + "\u0000" + node;
    CompletableFuture<Session.Outcome> f;
    synchronized (this) {
      ExecutorService ex = lanes.computeIfAbsent(lane, l -> Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "store-" + app + "." + node);
        t.setDaemon(true);
        return t;
      }));
      f = CompletableFuture.supplyAsync(() -> {
        Session.Outcome o;
        try {
          o = run(app, node, command, grid);
        } catch (RuntimeException e) {
          o = new Session.Outcome(app, node, 1, "", "cairn: store failed: " + e + "\n");
        }
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
        return new Session.Outcome(app, node, o.exit(), o.out(), o.err());
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

  /** Runs one store's command line in the agent, to {@code grid}, with its output captured. */
  private Session.Outcome run(String app, String node, List<String> command, GridPool.Key grid) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Map<String, String> env = Map.of("CAIRN_TRACKER", grid.where(), "CAIRN_TOKEN", grid.token()); // the grid it was queued for
    Session s = new Session(null, out, new PrintStream(err, true, StandardCharsets.UTF_8), false, env, grids, this);
    int code = root.runCommand(s, command.toArray(String[]::new));
    return new Session.Outcome(app, node, code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
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
