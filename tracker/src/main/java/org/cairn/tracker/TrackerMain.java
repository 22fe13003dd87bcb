package org.cairn.tracker;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.cairn.core.config.Durations;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.service.TrackerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code java -jar cairn-tracker.jar}: runs the tracker until SIGINT/SIGTERM. */
@Command(name = "cairn-tracker", mixinStandardHelpOptions = true, version = "cairn-tracker 0.1.0",
    description = {"The Cairn tracker: membership, availability history, placement, metadata.",
        "Without --token-file, the first start writes an admin token to DATA/admin.token (mode 0600); "
        + "'token create' makes client and donor tokens (the tracker may be running).",
        "Exit codes: 0 stopped normally, 1 failed to start or run, 2 usage error."},
    subcommands = {TokenCommand.class, CaCommand.class, BackupCommand.class, RecoverCommand.class})
public final class TrackerMain implements Callable<Integer> {
  @Option(names = "--data", paramLabel = "DIR", description = "Directory for the tracker's database (required).")
  Path data;

  @Option(names = "--listen", defaultValue = "127.0.0.1:7600", paramLabel = "HOST:PORT",
      description = "HTTP API address (default: ${DEFAULT-VALUE}; port 0 picks a free one).")
  String listen;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = {"File holding the operator's admin token, for a grid that sets its own (default: DATA/admin.token, "
          + "written at the first start)."})
  Path tokenFile;

  @Option(names = "--heartbeat-interval", paramLabel = "DURATION",
      description = "Interval peers are told to heartbeat at (default: 5s).")
  String heartbeatInterval;

  @Option(names = "--peer-timeout", paramLabel = "DURATION",
      description = "Missed-heartbeat time after which a peer is DOWN (default: 3 x the interval).")
  String peerTimeout;

  @Option(names = "--history-slot", paramLabel = "DURATION",
      description = "Length of one availability-history slot (default: 1m).")
  String historySlot;

  @Option(names = "--history-retention", paramLabel = "DURATION",
      description = "How long history is kept (default: 14d).")
  String historyRetention;

  @Option(names = "--history-window", paramLabel = "DURATION",
      description = "History window CRLS is computed over for placement (default: 7d).")
  String historyWindow;

  @Option(names = "--repair-grace", paramLabel = "DURATION",
      description = "How long a peer may be DOWN before its data is repaired (default: 10m).")
  String repairGrace;

  @Option(names = "--tls", hidden = true, description = "HTTPS, now the default: accepted so older scripts run, and does nothing.")
  boolean tls;

  @Option(names = "--insecure-plain-http", description = {"Serve the API and the status page over plain HTTP instead of HTTPS "
      + "(the default, with the tracker's own CA made at the first start in DATA/tls and pinned by the tokens). Everything "
      + "then crosses the network readable and alterable: bearer tokens, the data-plane key, peers' ticket keys, manifests. "
      + "Only for a network nobody else reaches; a tracker group refuses it."})
  boolean insecurePlainHttp;

  @Option(names = "--tls-ca", paramLabel = "DIR",
      description = {"Use the CA in DIR (from 'cairn-tracker ca create --out DIR') instead of making one; a tracker "
          + "group needs it, every member started with the same DIR (copied to each), so tokens pin every member "
          + "and the members' Raft traffic runs over mutual TLS. Copied into DATA/tls at the first start."})
  Path tlsCa;

  @Option(names = "--status-page", defaultValue = "token", paramLabel = "token|public|public-apps",
      description = {"Who may see the status page at /: token (default) asks for a token; "
          + "public lets anyone who can reach the tracker read the grid's status (read-only: peers, health, "
          + "repair; no app names); public-apps also shows apps, nodes and versions."})
  String statusPage;

  @Option(names = "--gc-hold", paramLabel = "DURATION",
      description = {"After a start, how long every piece counts as part of a store in flight, so peers' GC deletes "
          + "nothing while clients that were storing name their chunks again (they do within a second of reaching "
          + "the tracker, and every 30 s; default: 60s)."})
  String gcHold;

  @Option(names = "--set-timeout", paramLabel = "DURATION",
      description = {"A checkpoint set (cairn store --set) whose parts are not all committed this long after its first part "
          + "is dropped and its chunks released (default: 1h)."})
  String setTimeout;

  @Option(names = "--repair-interval", paramLabel = "DURATION",
      description = "How often the chunk index is scanned for repair and durability counts (default: 2s).")
  String repairInterval;

  @Option(names = "--repair-jobs-per-peer", paramLabel = "N",
      description = "Repair jobs one peer executes, and receives pieces for, at a time (default: 4).")
  Integer repairJobsPerPeer;

  @Option(names = "--peers", paramLabel = "ID=HOST:PORT,...",
      description = {"Run as one member of a replicated tracker group (Apache Ratis; 3 or 5 members): every member's id "
          + "and the address the group replicates its log over (each member gets the same list). Writes go to the "
          + "leader; the others answer 503 naming it. Without --peers the tracker runs alone."})
  String peers;

  @Option(names = "--id", paramLabel = "ID", description = "With --peers: which member this tracker is.")
  String id;

  @Option(names = "--snapshot-every", defaultValue = "10000", paramLabel = "N",
      description = {"With --peers: log entries between snapshots of the store (RocksDB checkpoints); the log before the "
          + "newest snapshot is purged, and a member too far behind is sent the snapshot (default: ${DEFAULT-VALUE})."})
  long snapshotEvery;

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TrackerMain.class);

  /** The transport flags that cannot go together, refused before anything starts. */
  private void checkTransport() {
    if (insecurePlainHttp && (tls || tlsCa != null)) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--insecure-plain-http cannot go with --tls or --tls-ca");
    }
    if (peers == null && id == null) {
      return;
    }
    if (insecurePlainHttp) {
      throw new CommandLine.ParameterException(new CommandLine(this), "a tracker group member refuses --insecure-plain-http: "
          + "its Raft log would take entries from anyone reaching its Raft port; start every member with --tls-ca DIR");
    }
    if (tlsCa == null && !java.nio.file.Files.exists(data.resolve("tls").resolve(org.cairn.tracker.tls.TrackerCa.KEY_FILE))) {
      throw new CommandLine.ParameterException(new CommandLine(this), "a tracker group member needs --tls-ca DIR, the group's "
          + "shared CA (its Raft traffic runs over mutual TLS with it, and tokens pin it): make it once with "
          + "'cairn-tracker ca create --out DIR', copy DIR to every member and start each with --tls-ca DIR");
    }
  }

  /** The one line a tracker that served plain HTTP before, and now HTTPS, logs at start: what peers and clients must change. */
  private String movedToHttps(String url) throws java.io.IOException {
    return "this tracker served plain HTTP before and now serves HTTPS (the default): peers and clients must use " + url
        + " and a token carrying its CA pin, TOKEN#sha256:" + readPin(data) + " (in " + data.resolve("ca.sha256")
        + "; 'cairn-tracker token create' prints tokens with it), or restart the tracker with --insecure-plain-http to stay plain";
  }

  private static String readPin(Path data) throws java.io.IOException {
    return java.nio.file.Files.readString(data.resolve("ca.sha256")).strip();
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new TrackerMain())
        .setAllowSubcommandsAsOptionParameters(true) // --status-page token is a value, not the token command
        .setParameterExceptionHandler((ex, a) -> {
          ex.getCommandLine().getErr().println("cairn-tracker: " + ex.getMessage());
          ex.getCommandLine().getErr().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
          return 2;
        })
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          cmd.getErr().println("cairn-tracker: " + e.getMessage());
          return 1;
        })
        .execute(args));
  }

  private int member(TrackerConfig config) throws Exception {
    org.cairn.tracker.group.GroupSpec spec;
    try {
      if (peers == null || id == null) {
        throw new IllegalArgumentException("a tracker group member needs both --peers and --id");
      }
      spec = org.cairn.tracker.group.GroupSpec.parse(peers, id).withSnapshotEvery(snapshotEvery);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    org.cairn.tracker.group.TrackerMember member = new org.cairn.tracker.group.TrackerMember(config, spec, Clock.systemUTC());
    member.setStatusPagePublic(statusPage.startsWith("public"), statusPage.equals("public-apps"));
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      member.close();
      stopped.countDown();
    }, "tracker-shutdown"));
    System.out.println("cairn-tracker " + spec.self() + " listening on " + member.url() + " (one of a group of " + spec.members().size()
        + ": the leader serves the grid, GET " + member.url() + "/api/v1/cluster shows which)");
    System.out.println("admin token: " + (tokenFile == null ? data.resolve("admin.token").toAbsolutePath() + " (the first leader's, shared)"
        : tokenFile + " (--token-file)"));
    System.out.flush();
    stopped.await();
    return 0;
  }

  /** The settings given on the command line over {@link TrackerConfig}'s defaults. */
  private TrackerConfig config() throws java.io.IOException {
    TrackerConfig.Builder b = TrackerConfig.builder(data).listen(HostPort.parse(listen)).tls(!insecurePlainHttp)
        .token(tokenFile == null ? null : GridToken.readFile(tokenFile));
    set("--heartbeat-interval", heartbeatInterval, b::heartbeatInterval);
    set("--peer-timeout", peerTimeout, b::peerTimeout);
    set("--history-slot", historySlot, b::historySlot);
    set("--history-retention", historyRetention, b::historyRetention);
    set("--history-window", historyWindow, b::historyWindow);
    set("--repair-grace", repairGrace, b::repairGrace);
    set("--repair-interval", repairInterval, b::repairInterval);
    set("--gc-hold", gcHold, b::gcHold);
    set("--set-timeout", setTimeout, b::setTimeout);
    if (repairJobsPerPeer != null) {
      b.repairJobsPerPeer(repairJobsPerPeer);
    }
    return b.build();
  }

  /** Sets a duration option that was given; a value that is no duration is refused naming the option. */
  private static void set(String option, String duration, java.util.function.Consumer<Duration> setting) {
    if (duration == null) {
      return;
    }
    Duration d;
    try {
      d = Durations.parse(duration);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
    setting.accept(d);
  }

  @Override
  public Integer call() throws Exception {
    if (data == null) {
      throw new CommandLine.ParameterException(new CommandLine(this), "Missing required option: '--data=DIR'");
    }
    TrackerConfig config;
    try {
      config = config();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
    }
    if (!List.of("public", "public-apps", "token").contains(statusPage)) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--status-page must be token, public or public-apps, was '" + statusPage + "'");
    }
    checkTransport();
    boolean wasPlain = !insecurePlainHttp && java.nio.file.Files.isDirectory(data.resolve("db"))
        && !java.nio.file.Files.exists(data.resolve("tls"));
    if (tlsCa != null) {
      org.cairn.tracker.tls.TrackerCa.adopt(data, tlsCa);
    }
    if (insecurePlainHttp) {
      LOG.warn("--insecure-plain-http: the API and the status page are plain HTTP, so anyone on the network between this "
          + "tracker and its peers and clients reads and can alter bearer tokens, the data-plane key, peers' ticket keys and "
          + "manifests; drop the flag to serve HTTPS (the default)");
    }
    if (peers != null || id != null) {
      return member(config);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Tracker tracker = new Tracker(config, Clock.systemUTC());
    tracker.setStatusPagePublic(statusPage.startsWith("public"), statusPage.equals("public-apps"));
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      tracker.close();
      stopped.countDown();
    }, "tracker-shutdown"));
    System.out.println("cairn-tracker listening on " + tracker.url(config.listen().host()));
    if (wasPlain) {
      String move = movedToHttps(tracker.url(config.listen().host()));
      LOG.warn(move);
      System.out.println(move);
    }
    System.out.println("status page: " + tracker.url(config.listen().host()) + "/ ("
        + (statusPage.startsWith("public") ? "public, read-only" : "asks for a token") + ")");
    if (tokenFile == null) {
      System.out.println("admin token: " + data.resolve("admin.token").toAbsolutePath()
          + " (mode 0600; 'cairn-tracker token create --data " + data + " --role client|donor' makes tokens to hand out)");
    } else {
      // a grid from before roles: one shared token that every peer and client uses as the operator
      System.out.println("admin token: " + tokenFile + " (--token-file). Peers and clients that use it can do everything;"
          + " give them their own: 'cairn-tracker token create --data " + data + " --role donor|client'"
          + " (docs/operations.md, 'Upgrading a grid from one shared token')"
          + (config.tls() ? "; for https add #sha256:" + readPin(data) + " to token files without a pin" : ""));
    }
    System.out.flush();
    stopped.await();
    return 0;
  }
}
