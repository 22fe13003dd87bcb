package org.cairn.cli.dmtcp;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cairn.client.Grid;
import org.cairn.client.dmtcp.CheckpointDir;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.chunk.ImageSource;

/**
 * A computation running under DMTCP (dmtcp_launch or dmtcp_restart, as a child with this process's
 * standard streams) whose checkpoints are stored as they complete: each generation (every image
 * plus the restart script) becomes one version of app/node; once it is committed, the local copies
 * of older generations are removed. Stores run one at a time on a watcher thread while the
 * computation goes on; a store that fails keeps its local copy and is said on standard error.
 */
final class DmtcpJob {
  /** How often the checkpoint directory is looked at. */
  static final Duration POLL = Duration.ofMillis(250);
  /** The file in the checkpoint directory where dmtcp_launch/dmtcp_restart write their coordinator's port. */
  static final String PORT_FILE = ".coordinator-port";
  /** The exit status of a job {@linkplain #stop() stopped} (that of a process SIGTERM ended). */
  static final int STOPPED = 128 + 15;
  /** How long after DMTCP says a requested checkpoint is done its restart script may take to appear. */
  private static final Duration CHECKPOINT_SCRIPT_WAIT = Duration.ofSeconds(10);
  /** How long the computation has to end after DMTCP's coordinator is told to quit. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);

  /** Stores one generation's directory as a version. */
  interface StoreDir {
    StoreOutcome store(Path dir) throws Exception;
  }

  private final CheckpointDir checkpoints;
  private final StoreDir storer;
  private final PrintWriter err;
  private final List<Path> olderCopies = new ArrayList<>();
  private int stored;
  private int failed;
  /** The last store attempt's version, or null when it failed (then {@link #lastError} says why). */
  private StoreOutcome lastStored;
  private String lastError;
  /** Guards {@link #computation}'s start against {@link #stop()}. */
  private final Object lifecycle = new Object();
  private volatile Process computation;
  private boolean stopRequested;
  /** One requested checkpoint at a time (a signal's, a notice's). */
  private final Object requested = new Object();

  DmtcpJob(CheckpointDir checkpoints, StoreDir storer, PrintWriter err) {
    this.checkpoints = checkpoints;
    this.storer = storer;
    this.err = err;
  }

  /** A local copy (an image set fetched for a restart) to remove once a newer checkpoint is committed. */
  void removeAfterNextCommit(Path copy) {
    olderCopies.add(copy);
  }

  /** Runs {@code command} to its end, storing checkpoints meanwhile; returns its exit status. */
  int run(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
    pb.environment().put("DMTCP_UNIQUE_CKPT_PLUGIN", "1");
    pb.environment().put("DMTCP_GZIP", "0"); // Cairn compresses after dedup; gzip'd images do not dedup
    // the coordinator's directory too, where it writes each restart script: dmtcp_launch passes its --ckptdir on to the
    // coordinator it starts, dmtcp_restart does not (its coordinator would write them into the working directory)
    pb.environment().put("DMTCP_CHECKPOINT_DIR", checkpoints.path().toString());
    Files.deleteIfExists(checkpoints.path().resolve(PORT_FILE)); // an earlier run's coordinator, gone
    Process p;
    synchronized (lifecycle) {
      if (stopRequested) {
        return STOPPED;
      }
      p = pb.start();
      computation = p;
    }
    Thread hook = new Thread(() -> {
      if (p.isAlive()) {
        p.destroy();
      }
    }, "dmtcp-job-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "dmtcp-checkpoints");
      t.setDaemon(true);
      return t;
    });
    try {
      watcher.scheduleWithFixedDelay(this::storeNew, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
      int status = p.waitFor();
      watcher.shutdown();
      if (!watcher.awaitTermination(1, TimeUnit.DAYS)) {
        throw new IOException("checkpoint stores did not finish");
      }
      storeNew(); // a checkpoint that completed just before the computation ended
      return status;
    } finally {
      watcher.shutdownNow();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it stops the computation
      }
    }
  }

  int stored() {
    return stored;
  }

  int failed() {
    return failed;
  }

  /**
   * Has DMTCP checkpoint the computation now (its coordinator's port is in the checkpoint directory's
   * {@value #PORT_FILE}) and stores that checkpoint; returns once it is committed, or throws saying why not.
   * A computation still starting is waited for up to {@code startWait}.
   */
  StoreOutcome checkpointNow(Duration startWait) throws IOException, InterruptedException {
    awaitRunning(startWait);
    return checkpointNow();
  }

  /** As {@link #checkpointNow(Duration)} for a computation that runs now. */
  StoreOutcome checkpointNow() throws IOException, InterruptedException {
    synchronized (requested) {
      return checkpointAndStore();
    }
  }

  private StoreOutcome checkpointAndStore() throws IOException, InterruptedException {
    int before;
    synchronized (this) {
      before = stored + failed;
    }
    coordinator("--bcheckpoint");
    long deadline = System.nanoTime() + CHECKPOINT_SCRIPT_WAIT.toNanos();
    while (true) {
      storeNew(); // waits for the watcher's store of it, if the watcher found it first
      synchronized (this) {
        if (stored + failed > before) {
          if (lastStored == null) {
            throw new IOException("storing it failed: " + lastError);
          }
          return lastStored;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("DMTCP said the checkpoint was done, but no complete checkpoint appeared in " + checkpoints.path());
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /** Ends the computation: DMTCP's coordinator kills its processes; whatever is left after a few seconds is killed. */
  void stop() throws InterruptedException {
    Process p;
    synchronized (lifecycle) {
      stopRequested = true;
      p = computation;
    }
    if (p == null) {
      return; // and it will not start
    }
    try {
      coordinator("--quit");
    } catch (IOException e) {
      say("could not ask DMTCP to end the program (" + e.getMessage() + "); killing it");
    }
    if (!p.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  /**
   * Waits until the computation runs under its coordinator (a request that comes while it starts, or
   * while a restart fetches its images, is served once it runs), or says why it cannot.
   */
  void awaitRunning(Duration startWait) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + startWait.toNanos();
    while (true) {
      Process p = computation;
      if (p != null && !p.isAlive()) {
        throw new IOException("the program has ended");
      }
      try {
        String status = coordinator("--status");
        if (status.contains("RUNNING=yes") && !status.contains("NUM_PEERS=0")) {
          return;
        }
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the program is not running under DMTCP" + (startWait.isZero() ? "" : " after " + startWait.toSeconds() + " s"));
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /** Runs dmtcp_command with {@code action} against this job's coordinator; returns what it printed. */
  private String coordinator(String action) throws IOException, InterruptedException {
    Path portFile = checkpoints.path().resolve(PORT_FILE);
    if (computation == null || !Files.isRegularFile(portFile) || Files.readString(portFile).isBlank()) {
      throw new IOException("the program has not started under DMTCP yet");
    }
    Process c = new ProcessBuilder(onPath("dmtcp_command"), "--coord-port", Files.readString(portFile).strip(), action)
        .redirectErrorStream(true).start();
    String out = new String(c.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    if (c.waitFor() != 0) {
      throw new IOException("dmtcp_command " + action + " failed (status " + c.exitValue() + "): " + out);
    }
    return out;
  }

  private synchronized void storeNew() {
    try {
      for (CheckpointDir.Generation g : checkpoints.newlyCompleted()) {
        store(g);
      }
    } catch (IOException e) {
      say("cannot read the checkpoint directory " + checkpoints.path() + ": " + e.getMessage());
    }
  }

  private void store(CheckpointDir.Generation g) {
    long t0 = System.nanoTime();
    try {
      Path staged = checkpoints.stage(g);
      StoreOutcome r = storer.store(staged);
      stored++;
      lastStored = r;
      lastError = null;
      checkpoints.pruneBefore(g, olderCopies);
      olderCopies.clear();
      say(String.format(Locale.ROOT, "stored checkpoint %d (%d images, %s) as %s.%s.%d in %.1f s", g.number(), g.imageFiles().size(),
          org.cairn.core.config.ByteSize.format(r.size()), r.app(), r.node(), r.step(), (System.nanoTime() - t0) / 1e9));
    } catch (Exception e) {
      failed++;
      lastStored = null;
      lastError = e.getMessage();
      say("storing checkpoint " + g.number() + " failed (its local copy in " + g.images() + " is kept): " + e.getMessage());
    }
  }

  private void say(String line) {
    err.println("cairn dmtcp: " + line);
    err.flush();
  }

  /** The command on PATH, or an error naming what to install. */
  static String onPath(String name) throws IOException {
    return org.cairn.cli.context.Executables.find(System.getenv(), null, name,
        "install DMTCP (see docs/operations.md, 'DMTCP jobs') and put its bin directory on PATH").toString();
  }

  /** Stores {@code dir} (a generation) as the next version of app/node through {@code grid}. */
  static StoreOutcome storeGeneration(Grid grid, StoreOptions options, Path dir) throws IOException {
    try (java.io.InputStream in = ImageSource.open(dir)) {
      return grid.store(in, 0, options);
    }
  }
}
