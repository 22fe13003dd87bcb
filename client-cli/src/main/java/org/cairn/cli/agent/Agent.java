package org.cairn.cli.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.cairn.cli.agent.wire.AgentRequest;
import org.cairn.cli.agent.wire.Argv;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Session;
import org.cairn.cli.context.Tunables;
import org.cairn.cli.output.Json;
import org.cairn.client.Grid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent process's composition root: its grids ({@link GridPool}), its background stores, its
 * socket, and the timers that report this compute host, keep donor connections, and end the agent
 * when it has been idle for its idle time or its jar was replaced by a new build. It runs the
 * commands thin clients hand it ({@link Argv#HANDED}) and answers {@code agent stop} and
 * {@code agent status}; anything else sent to its socket is refused.
 */
final class Agent {
  private static final Logger LOG = LoggerFactory.getLogger(Agent.class);
  /** What the agent was started with; {@code tunables}: how often it watches itself and when it trims its heap. */
  record Settings(Path socket, Path spool, Duration heartbeat, Duration keepConnections, Duration idleExit, String clientId,
      Path keyDir, Tunables tunables) {}

  private final Settings settings;
  private final Root root;
  private final GridPool grids;
  private final AsyncStores background;
  private final JarStamp jar = JarStamp.ofRunning();
  private final Instant since = Instant.now();
  private final AtomicLong served = new AtomicLong();
  private final AtomicLong lastActivity = new AtomicLong(System.nanoTime());
  /** When the agent last gave memory back (System.nanoTime): before {@link #lastActivity}, not yet in this idle spell. */
  private final AtomicLong trimmedAt = new AtomicLong(lastActivity.get() - 1);
  /**
   * How often an idle agent gives memory back again: its heartbeats and status calls refill the young heap and the C
   * heap's arenas (~12 MB over three idle minutes after a trim); a trim costs a full collection of ~30 MB live.
   */
  private static final long RETRIM_NANOS = TimeUnit.MINUTES.toNanos(5);
  private final CountDownLatch stop = new CountDownLatch(1);
  /** The jobs watching for checkpoint notices. */
  private final NoticeBoard notices = new NoticeBoard(org.cairn.cli.agent.wire.CheckpointNotice.MIN_GAP);
  private volatile String stopReason = "";
  private AgentServer server;

  Agent(Settings settings, GridPool grids, Root root) throws IOException {
    this.settings = settings;
    this.root = root;
    this.grids = grids;
    this.background = new AsyncStores(settings.spool(), grids);
  }

  AsyncStores background() {
    return background;
  }

  /** Opens the socket (after resuming spooled stores); commands are taken from then on. */
  int start() throws IOException {
    int resumed = background.resume();
    server = AgentServer.start(settings.socket(), this::run, notices::hold);
    return resumed;
  }

  /** Starts the timers; returns once the agent is told to stop (a signal, {@code agent stop}, idleness, a new jar). */
  String awaitStop(PrintStream err) throws InterruptedException {
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "agent-timers");
      t.setDaemon(true);
      return t;
    });
    try {
      if (settings.heartbeat() != null) {
        timers.execute(new Runnable() {
          @Override
          public void run() {
            long interval = beatAll(true, err); // at most --heartbeat apart, and at least as often as the trackers ask
            long every = settings.heartbeat().toMillis();
            timers.schedule(this, interval > 0 ? Math.min(every, interval) : every, TimeUnit.MILLISECONDS);
          }
        });
      }
      if (settings.keepConnections() != null && !settings.keepConnections().isZero()) {
        long every = AgentCommand.KEEPALIVE_SECONDS;
        timers.scheduleWithFixedDelay(() -> grids.grids().forEach(g -> g.keepConnections(settings.keepConnections())), every, every,
            TimeUnit.SECONDS);
      }
      long watchMillis = settings.tunables().watchInterval().toMillis();
      timers.scheduleWithFixedDelay(this::watch, watchMillis, watchMillis, TimeUnit.MILLISECONDS);
      stop.await();
    } finally {
      timers.shutdownNow();
    }
    return stopReason;
  }

  /** Tells the agent to stop (once; the first reason stands). */
  void stop(String why) {
    synchronized (stop) {
      if (stop.getCount() > 0) {
        stopReason = why;
        LOG.info("stopping: {}", why);
        stop.countDown();
      }
    }
  }

  /** Closes the socket (running commands get {@code grace}), the background stores and the grids (after a last DOWN report). */
  void close(Duration grace, PrintStream err) {
    notices.close(); // the watching jobs' connections end now, not after the grace
    if (server != null) {
      server.close(grace);
    }
    background.close();
    if (settings.heartbeat() != null) {
      beatAll(false, err);
    }
    grids.close();
  }

  int pendingBackground() {
    return background.pending();
  }

  /** Idle past the idle time (nothing running, nothing queued), or a replaced jar: stop. */
  private void watch() {
    if (jar.changed()) {
      stop("its jar " + jar.path() + " was replaced (a new build starts a new agent)");
      return;
    }
    boolean busy = server != null && server.running() > 0 || background.pending() > 0;
    long last = lastActivity.get();
    if (busy) {
      lastActivity.set(System.nanoTime());
    } else if (settings.idleExit() != null && System.nanoTime() - last > settings.idleExit().toNanos()) {
      stop("idle for " + AgentStatus.human(settings.idleExit()));
    } else if (trimDue(System.nanoTime(), last)) {
      trim();
    }
  }

  /** Idle for the trim time, and not trimmed in this idle spell or not for {@link #RETRIM_NANOS}. */
  private boolean trimDue(long now, long last) {
    long at = trimmedAt.get();
    boolean due = now - last > settings.tunables().trimAfter().toNanos() && (at - last < 0 || now - at > RETRIM_NANOS);
    return due && trimmedAt.compareAndSet(at, now);
  }

  /**
   * Gives the heap a burst of stores grew back to the system (a full collection shrinks it; the launcher's
   * MaxHeapFreeRatio says how far): an idle agent holds ~0.5 GB of freed chunk buffers otherwise.
   */
  private static void trim() {
    long before = Runtime.getRuntime().totalMemory();
    System.gc();
    LOG.debug("idle: heap {} MiB -> {} MiB", before >> 20, Runtime.getRuntime().totalMemory() >> 20);
    NativeHeap.trim();
  }

  /** One request from a thin client. */
  private int run(AgentRequest request, OutputStream o, OutputStream e) throws Exception {
    lastActivity.set(System.nanoTime());
    List<String> args = request.args();
    String command = Argv.commandOf(args.toArray(String[]::new));
    PrintStream err = new PrintStream(e, true, StandardCharsets.UTF_8);
    try {
      if ("agent".equals(command)) {
        return control(args, new PrintStream(o, true, StandardCharsets.UTF_8), err);
      }
      if (command == null || !Argv.HANDED.contains(command)) {
        err.println("cairn agent: runs " + String.join(", ", new java.util.TreeSet<>(Argv.HANDED))
            + ", agent stop, agent status and agent notify-checkpoint; not "
            + command);
        return 2;
      }
      if (jar.changed()) {
        stop("its jar " + jar.path() + " was replaced (a new build starts a new agent)");
        throw new AgentServer.Declined("this agent's jar was replaced");
      }
      String mismatch = unservable(request.env());
      if (mismatch != null) {
        throw new AgentServer.Declined(mismatch);
      }
      served.incrementAndGet();
      Map<String, String> own = Map.of("--key-dir", settings.keyDir() == null ? "" : settings.keyDir().toAbsolutePath().toString());
      return root.runCommand(new Session(Path.of(request.cwd()), o, err, request.terminal(), request.env(), grids, background),
          Argv.withFlags(args, own).toArray(String[]::new));
    } finally {
      lastActivity.set(System.nanoTime());
    }
  }

  /**
   * Why this agent cannot run a command for a client with {@code env} as that client would run it itself (null: it
   * can): the host's cache of bases is the agent's own, so a client that sets another runs in its own process.
   */
  static String unservable(Map<String, String> env) {
    for (String name : List.of("CAIRN_BASE_CACHE")) {
      String own = blankToNull(System.getenv(name));
      String theirs = blankToNull(env.get(name));
      if (!java.util.Objects.equals(own, theirs)) {
        return "the client's " + name + " is not this agent's";
      }
    }
    return null;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  /** {@code agent stop} and {@code agent status} sent to this agent. */
  private int control(List<String> args, PrintStream out, PrintStream err) throws IOException {
    String sub = args.size() > args.indexOf("agent") + 1 ? args.get(args.indexOf("agent") + 1) : "";
    switch (sub) {
      case "stop" -> {
        out.println("stopping the agent (pid " + ProcessHandle.current().pid() + ")"
            + (server != null && server.running() > 1 ? "; " + (server.running() - 1) + " running commands get 10 s to end" : ""));
        stop("asked by 'cairn agent stop'");
        return 0;
      }
      case "status" -> {
        AgentStatus status = status();
        if (args.contains("--json")) {
          out.println(Json.MAPPER.writeValueAsString(status));
        } else {
          status.print(out);
        }
        return 0;
      }
      case org.cairn.cli.agent.wire.CheckpointNotice.NOTIFY -> {
        return notifyCheckpoint(args, out);
      }
      default -> {
        err.println("cairn agent: its socket takes 'agent stop', 'agent status' and 'agent notify-checkpoint', not 'agent " + sub + "'");
        return 2;
      }
    }
  }

  /** {@code agent notify-checkpoint [--reason R] [--json]}: tells the watching jobs to checkpoint now. */
  private int notifyCheckpoint(List<String> args, PrintStream out) throws IOException {
    int at = args.indexOf("--reason");
    String reason = at >= 0 && at + 1 < args.size() ? args.get(at + 1) : "asked by 'cairn agent notify-checkpoint'";
    NoticeBoard.Outcome o = notices.notifyAll(reason, System.nanoTime());
    if (args.contains("--json")) {
      out.println(Json.MAPPER.writeValueAsString(o));
    } else if (!o.sent()) {
      out.println("not sent: a notice went out less than " + org.cairn.cli.agent.wire.CheckpointNotice.MIN_GAP.toSeconds()
          + " s ago (the next may go in " + o.nextInSeconds() + " s)");
    } else {
      out.println("notice " + o.seq() + " sent to " + o.told().size() + " job(s)" + (o.told().isEmpty() ? "" : ": " + String.join(", ", o.told()))
          + (o.dropped().isEmpty() ? "" : "; dropped " + String.join(", ", o.dropped()) + " (gone)"));
    }
    return 0;
  }

  AgentStatus status() {
    long idleMillis = (System.nanoTime() - lastActivity.get()) / 1_000_000;
    return new AgentStatus(true, ProcessHandle.current().pid(), settings.socket().toString(), since.toString(), served.get(),
        server == null ? 0 : server.running() - notices.watching(), notices.watching(), background.pending(), grids.keys().stream().map(GridPool.Key::where).toList(),
        idleMillis / 1000, settings.idleExit() == null ? null : settings.idleExit().toSeconds(), jar.path().toString(),
        Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory());
  }

  /** Reports this host to every grid open; returns the shortest heartbeat interval their trackers asked for (0: none said). */
  private long beatAll(boolean up, PrintStream err) {
    long shortest = 0;
    for (Grid g : grids.grids()) {
      try {
        Long interval = g.tracker().computeHeartbeat(settings.clientId(), up).intervalMillis();
        if (interval != null && interval > 0) {
          shortest = shortest == 0 ? interval : Math.min(shortest, interval);
        }
      } catch (IOException | RuntimeException ex) {
        err.println("cairn agent: heartbeat to " + g.tracker().base() + " failed (" + ex.getMessage() + "); retrying");
        err.flush();
      }
    }
    return shortest;
  }
}
