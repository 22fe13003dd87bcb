package org.cairn.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Callable;
import org.cairn.cli.agent.AgentServer;
import org.cairn.client.Grid;
import org.cairn.core.config.Durations;
import org.cairn.core.util.UserCache;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn agent}: the compute host's resident client. It keeps a warm JVM and open connections
 * to the tracker and the donors, runs the store, fetch, verify, versions, wait and prefetch commands
 * that thin {@code cairn} processes hand it over a Unix socket, stores {@code --async} images in the
 * background, and heartbeats this compute host (FALCON's CRLS needs its history).
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
    description = {"Run the resident agent of this compute host in the foreground (stop with Ctrl-C or SIGTERM).",
        "cairn commands with CAIRN_AGENT_SOCKET=SOCKET (or --agent SOCKET) hand it their work; it also stores "
        + "'store --async' images in the background and reports this host UP to the tracker."})
final class AgentCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  CairnCli root;

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

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    Duration every;
    try {
      every = heartbeat.equals("never") ? null : Durations.parse(heartbeat);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--heartbeat: " + e.getMessage());
    }
    Duration keep;
    try {
      keep = Durations.parse(keepConnections);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--keep-connections: " + e.getMessage());
    }
    Path sock = (socket != null ? socket : defaultSocket()).toAbsolutePath();
    if (socket == null) {
      org.cairn.client.PrivateDirs.ensure(sock.getParent()); // Cairn's own directory: 0700 (a --socket's is the user's choice)
    }
    Path spoolDir = spool != null ? spool.toAbsolutePath() : Path.of(sock + ".spool");
    String id = client != null ? client : StoreCommand.clientId();
    PrintWriter out = cl.getOut();
    try (Grid grid = GridAccess.open(root, cl).recordsInBackground()) {
      grid.peerList(); // the tracker and the token are good before the socket opens
      AsyncStores background = new AsyncStores(spoolDir, grid);
      // the agent's own --key-dir for the commands it serves that name none (the client's CAIRN_KEY_DIR arrives as one)
      java.util.Map<String, String> own = java.util.Map.of("--key-dir", root.keyDir == null ? "" : root.keyDir.toAbsolutePath().toString());
      AgentServer server = AgentServer.start(sock, (request, o, e) -> CairnCli.run(
          new Session(Path.of(request.cwd()), o, new PrintStream(e, true, StandardCharsets.UTF_8), request.terminal(), grid, background),
          Main.withFlags(request.args(), own).toArray(String[]::new)));
      ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "agent-heartbeat");
        t.setDaemon(true);
        return t;
      });
      CountDownLatch stopped = new CountDownLatch(1);
      CountDownLatch stop = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        stop.countDown();
        try {
          stopped.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException ignored) {
          Thread.currentThread().interrupt();
        }
      }, "agent-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        if (warmup > 0) {
          Thread w = new Thread(() -> Warmup.run(warmup, Duration.ofSeconds(60)), "agent-warmup");
          w.setDaemon(true);
          w.setPriority(Thread.MIN_PRIORITY);
          w.start();
        }
        int resumed = background.resume();
        if (every != null) {
          beats.execute(new Runnable() {
            @Override
            public void run() {
              long interval = beat(grid, id, true, cl);
              beats.schedule(this, interval > 0 ? Math.min(every.toMillis(), interval) : every.toMillis(), TimeUnit.MILLISECONDS);
            }
          });
        }
        if (!keep.isZero()) {
          beats.scheduleWithFixedDelay(() -> grid.keepConnections(keep), KEEPALIVE_SECONDS, KEEPALIVE_SECONDS, TimeUnit.SECONDS);
        }
        out.println("cairn agent for " + grid.tracker().base() + " on " + sock + (resumed > 0 ? " (resumed " + resumed + " spooled stores)" : ""));
        out.println("  export CAIRN_AGENT_SOCKET=" + sock);
        out.flush();
        stop.await();
      } finally {
        server.close(Duration.ofSeconds(10));
        beats.shutdownNow();
        background.close();
        if (every != null) {
          beat(grid, id, false, cl);
        }
        out.println("cairn agent stopped" + (background.pending() > 0 ? "; spooled stores resume at its next start" : ""));
        out.flush();
        stopped.countDown();
      }
    }
    return 0;
  }

  /** Reports this host; returns the tracker's heartbeat interval in ms (the agent reports at least that often), or 0. */
  private static long beat(Grid grid, String id, boolean up, CommandLine cl) {
    try {
      Long interval = grid.tracker().computeHeartbeat(id, up).intervalMillis();
      return interval == null ? 0 : interval;
    } catch (java.io.IOException | RuntimeException e) {
      cl.getErr().println("cairn agent: heartbeat failed (" + e.getMessage() + "); retrying");
      cl.getErr().flush();
      return 0;
    }
  }

  /** $XDG_RUNTIME_DIR/cairn/agent.sock, else agent.sock in Cairn's user cache ({@link UserCache}). */
  static Path defaultSocket() {
    String runtime = System.getenv("XDG_RUNTIME_DIR");
    Path dir = runtime != null && !runtime.isBlank() ? Path.of(runtime, "cairn") : UserCache.dir();
    return dir.resolve("agent.sock");
  }
}
