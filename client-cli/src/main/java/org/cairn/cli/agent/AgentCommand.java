package org.cairn.cli.agent;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cairn.cli.Main;
import org.cairn.cli.command.StoreCommand;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Tunables;
import org.cairn.cli.startup.Warmup;
import org.cairn.client.Grid;
import org.cairn.core.config.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code cairn agent}: the compute host's resident client. It keeps a warm JVM and open connections
 * to the tracker and the donors, runs the store, fetch, verify, versions, wait and prefetch commands
 * that thin {@code cairn} processes hand it over a Unix socket, stores {@code --async} images in the
 * background, and heartbeats this compute host (FALCON's CRLS needs its history).
 */
@Command(name = "agent", mixinStandardHelpOptions = true, subcommands = {AgentControl.Stop.class, AgentControl.Status.class,
    AgentControl.NotifyCheckpoint.class},
    description = {"Run the resident agent of this compute host in the foreground (stop with Ctrl-C, SIGTERM or 'cairn agent stop').",
        "store, fetch, verify, versions, wait and prefetch start one by themselves (after running in their own process) and hand "
        + "their work to it from then on; CAIRN_AGENT=off or --no-agent keeps every command in its own process. It serves every "
        + "tracker and token its callers name, stores 'store --async' images in the background, reports this host UP to the "
        + "trackers it serves, and exits after --idle-exit without commands or when its jar is replaced by a new build.",
        "Started by hand it needs a grid (--tracker/--token-file, CAIRN_TRACKER and a token, or the config file), checked at "
        + "start; it serves commands that name none too."})
public final class AgentCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--socket", paramLabel = "PATH",
      description = "Unix socket to serve (default: $XDG_RUNTIME_DIR/cairn/agent.sock, else $XDG_CACHE_HOME/cairn/agent.sock or ~/.cache/cairn/agent.sock).")
  Path socket;

  @Option(names = "--spool", paramLabel = "DIR",
      description = "Where --async stores keep their private copies until committed (default: SOCKET.spool).")
  Path spool;

  @Option(names = "--heartbeat", defaultValue = "5s", paramLabel = "DURATION",
      description = {"How often this compute host is reported UP, at most (the tracker's interval when shorter); "
          + "'never' to not report (default: ${DEFAULT-VALUE})."})
  String heartbeat;

  @Option(names = "--keep-connections", defaultValue = "15m", paramLabel = "DURATION",
      description = {"Keep the connections to the donors a command used this long after its last use (a PING every "
          + KEEPALIVE_SECONDS + " s; a donor closes a connection idle for 120 s), so the next checkpoint does not open them "
          + "again; 0 to let them close (default: ${DEFAULT-VALUE})."})
  String keepConnections;

  /** How often the kept connections are pinged: well inside the peers' 120 s read timeout. */
  static final int KEEPALIVE_SECONDS = 50;

  @Option(names = "--warmup", defaultValue = "256", paramLabel = "CHUNKS",
      description = {"At start, run the chunk path (hash, compress, seal, code, decode) over this many generated 1 MiB chunks in "
          + "the background (a few CPU-s, at most 60 s), so the first checkpoint runs compiled code; 0: none (default: ${DEFAULT-VALUE})."})
  int warmup;

  @Option(names = "--client", description = "Compute host id (default: $CAIRN_CLIENT_ID, else this host's name, as stores use).")
  String client;

  @Option(names = "--idle-exit", defaultValue = "30m", paramLabel = "DURATION",
      description = {"Exit after this long with no command running and no background store queued; 'never' to stay "
          + "(default: ${DEFAULT-VALUE})."})
  String idleExit;

  /** Started by a command that found no agent (Main): no grid of its own, warm before it takes commands, quiet output. */
  @Option(names = "--self-started", hidden = true)
  boolean selfStarted;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    Duration every = duration(cl, "--heartbeat", heartbeat);
    Duration keep = duration(cl, "--keep-connections", keepConnections);
    Duration idle = duration(cl, "--idle-exit", idleExit);
    Path sock = (socket != null ? socket : defaultSocket()).toAbsolutePath();
    if (socket == null) {
      org.cairn.client.keys.PrivateDirs.ensure(sock.getParent()); // Cairn's own directory: 0700 (a --socket's is the user's choice)
    } else if (!java.nio.file.Files.isDirectory(sock.getParent())) {
      java.nio.file.Files.createDirectories(sock.getParent(), org.cairn.client.keys.PrivateDirs.ownerOnly()); // a new one: 0700
    }
    try (AgentLock lock = lock(sock)) {
      if (lock == null) {
        if (selfStarted) {
          return 0; // another command started one first
        }
        throw new java.io.IOException("another agent is starting or serving " + sock + " ('cairn agent status' says which)");
      }
      return serve(cl, sock, every, keep, idle);
    }
  }

  /**
   * The socket's lock, or null when another agent holds it. Tried for a second: a command asking whether one is held
   * ({@link AgentLock#held}) holds it for a moment.
   */
  private static AgentLock lock(Path sock) throws java.io.IOException, InterruptedException {
    for (int attempt = 0; ; attempt++) {
      AgentLock lock = AgentLock.take(sock);
      if (lock != null || attempt == 10) {
        return lock;
      }
      Thread.sleep(100);
    }
  }

  private int serve(CommandLine cl, Path sock, Duration every, Duration keep, Duration idle) throws Exception {
    Path spoolDir = spool != null ? spool.toAbsolutePath() : Path.of(sock + ".spool");
    Tunables tunables;
    try {
      tunables = Tunables.system(); // read once, here; the agent hands them on
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    String id = client != null ? client : StoreCommand.clientId();
    PrintWriter out = cl.getOut();
    GridPool grids = ownGrid(cl);
    Agent agent = new Agent(new Agent.Settings(sock, spoolDir, every, keep, idle, id, root.keyDir(), tunables), grids, root);
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      agent.stop("a signal (SIGTERM or Ctrl-C)");
      try {
        stopped.await(20, TimeUnit.SECONDS);
      } catch (InterruptedException ignored) {
        Thread.currentThread().interrupt();
      }
    }, "agent-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (selfStarted && warmup > 0) {
        Warmup.run(warmup, Duration.ofSeconds(60)); // before the socket opens: a command meanwhile runs in its own process
      } else if (warmup > 0) {
        Thread w = new Thread(() -> Warmup.run(warmup, Duration.ofSeconds(60)), "agent-warmup");
        w.setDaemon(true);
        w.setPriority(Thread.MIN_PRIORITY);
        w.start();
      }
      int resumed = agent.start();
      String what = grids.defaultKey() == null ? "any grid its callers name" : grids.defaultKey().where();
      out.println("cairn agent for " + what + " on " + sock + " (pid " + ProcessHandle.current().pid() + ")"
          + (resumed > 0 ? " (resumed " + resumed + " spooled stores)" : ""));
      out.println("  export CAIRN_AGENT_SOCKET=" + sock);
      out.flush();
      String why = agent.awaitStop(System.err);
      out.println("cairn agent stopping: " + why);
      out.flush();
    } finally {
      agent.close(Duration.ofSeconds(10), System.err);
      out.println("cairn agent stopped" + (agent.pendingBackground() > 0 ? "; spooled stores resume at its next start" : ""));
      out.flush();
      stopped.countDown();
    }
    return 0;
  }

  /**
   * The grid the agent's own flags, environment or config name (checked before the socket opens: a wrong token fails
   * here), as its default for commands that name none; none for a self-started agent (each command names its own).
   */
  private GridPool ownGrid(CommandLine cl) throws java.io.IOException {
    if (selfStarted) {
      return new GridPool(null, null);
    }
    GridPool.Key key = GridAccess.key(root, cl); // none named: a usage error, as before agents started by themselves
    Grid grid = Grid.open(key.trackers(), key.gridToken(), Grid.DEFAULT_TIMEOUT).recordsInBackground();
    try {
      grid.peerList(); // the tracker and the token are good before the socket opens
    } catch (java.io.IOException | RuntimeException e) {
      grid.close();
      throw e;
    }
    return new GridPool(key, grid);
  }

  private static Duration duration(CommandLine cl, String option, String value) {
    if (value.equals("never")) {
      return null;
    }
    try {
      return Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, option + ": " + e.getMessage());
    }
  }

  /** $XDG_RUNTIME_DIR/cairn/agent.sock, else agent.sock in Cairn's user cache ({@link org.cairn.cli.agent.wire.AgentSocket}). */
  static Path defaultSocket() {
    return org.cairn.cli.agent.wire.AgentSocket.standard();
  }
}
