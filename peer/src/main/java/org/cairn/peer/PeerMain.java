package org.cairn.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.cairn.core.config.ByteSize;
import org.cairn.core.config.Durations;
import org.cairn.core.config.HostPort;
import org.cairn.core.security.GridToken;
import org.cairn.peer.server.ConnectionLimits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code java -jar cairn-peer.jar}: a donor peer, until SIGINT/SIGTERM (then it tells the tracker it
 * is leaving). Settings come from flags, or from a YAML file ({@code --config}) whose keys are the
 * flags' names without dashes; flags win.
 */
@Command(name = "cairn-peer", mixinStandardHelpOptions = true, version = "cairn-peer " + PeerDaemon.VERSION,
    description = {"A Cairn donor peer: contributes disk space to the grid and heartbeats its state to the tracker.",
        "Exit codes: 0 stopped normally, 1 failed to start or run, 2 usage error."})
public final class PeerMain implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML file with any of the settings below (keys: tracker, data, quota, ...).")
  Path configFile;

  @Option(names = "--tracker", paramLabel = "URL[,URL...]",
      description = "Tracker URL, e.g. http://127.0.0.1:7600; for a tracker group, its members' URLs separated by commas.")
  String tracker;

  @Option(names = "--data", paramLabel = "DIR", description = "Directory for the peer's fragments and id.")
  Path data;

  @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Data server address (default: 127.0.0.1:0, a free port).")
  String listen;

  @Option(names = "--advertise", paramLabel = "HOST", description = "Host clients should connect to (default: the listen host).")
  String advertise;

  @Option(names = "--quota", paramLabel = "SIZE", description = "Disk space to donate, e.g. 2GiB.")
  String quota;

  @Option(names = "--min-free", paramLabel = "SIZE", description = "Free disk space always left to the owner (default: 1GiB).")
  String minFree;

  @Option(names = "--token-file", paramLabel = "FILE", description = "File holding the grid token.")
  Path tokenFile;

  @Option(names = "--heartbeat-interval", paramLabel = "DURATION", description = "Heartbeat interval until the tracker names one in its first answer (default: 5s).")
  String heartbeatInterval;

  @Option(names = "--tau1", paramLabel = "FRACTION", description = "I/O load at which the peer is LOADED (default: 0.5).")
  Double tau1;

  @Option(names = "--tau2", paramLabel = "FRACTION", description = "I/O load at which the peer is BUSY (default: 0.8).")
  Double tau2;

  @Option(names = "--report-disk-rate", paramLabel = "true|false", arity = "1",
      description = "Report the rate this disk takes Cairn's writes with each heartbeat, so placement can prefer a slower link "
          + "to a disk its owner keeps busy (default: true).")
  Boolean reportDiskRate;

  @Option(names = "--max-clients", paramLabel = "N", description = "Concurrent writers at which the peer is FULL (default: 8).")
  Integer maxClients;

  @Option(names = "--paused", description = "Start with donating paused (stored fragments are still served).")
  Boolean paused;

  @Option(names = "--id", paramLabel = "ID", description = "Peer id (default: generated once and kept in DIR/peer-id).")
  String id;

  @Option(names = "--bandwidth-cap", paramLabel = "BYTES_PER_SEC",
      description = "Cap on data traffic in each direction, e.g. 10MiB (default: 0, none).")
  String bandwidthCap;

  @Option(names = "--upload-cap", paramLabel = "BYTES_PER_SEC",
      description = "Cap on data this peer sends, e.g. 100KiB (default: the --bandwidth-cap).")
  String uploadCap;

  @Option(names = "--download-cap", paramLabel = "BYTES_PER_SEC",
      description = "Cap on data this peer receives, e.g. 500KiB (default: the --bandwidth-cap).")
  String downloadCap;

  @Option(names = "--gc-interval", paramLabel = "DURATION",
      description = "How often to check held fragments with the tracker for garbage (default: 10m).")
  String gcInterval;

  @Option(names = "--gc-grace", paramLabel = "DURATION",
      description = "How long a fragment must stay garbage before it is deleted (default: 1h; protects stores in flight).")
  String gcGrace;

  @Option(names = "--repair-rate", paramLabel = "BYTES_PER_SEC",
      description = "Limit on the repair traffic this peer executes, in each direction (default: 32MiB; 0: none). "
          + "Under an upload or download cap repair takes at most half of it, and the data server the rest while it runs.")
  String repairRate;

  @Option(names = "--repair-threads", paramLabel = "N", description = "Chunks rebuilt at once (default: 4).")
  Integer repairThreads;

  @Option(names = "--scrub-period", paramLabel = "DURATION",
      description = "Time for one full verification pass over the stored fragments (default: 7d).")
  String scrubPeriod;

  @Option(names = "--scrub-max-rate", paramLabel = "BYTES_PER_SEC",
      description = "Upper limit on the scrubbing read rate (default: 8MiB; 0: none).")
  String scrubMaxRate;

  @Option(names = "--soft-sync-interval", paramLabel = "DURATION",
      description = {"How soon pieces written soft ('cairn store --write soft': acknowledged before they are on disk) are made "
          + "durable in the background (default: 1s)."})
  String softSyncInterval;

  @Option(names = "--max-connections", paramLabel = "N",
      description = "Data-plane connections open at once, authenticated or not; more are closed at accept (default: 512).")
  Integer maxConnections;

  @Option(names = "--max-connections-per-address", paramLabel = "N",
      description = "Data-plane connections open at once from one IP address; more are closed at accept (default: 64).")
  Integer maxConnectionsPerAddress;

  @Option(names = "--io-capacity", paramLabel = "BYTES_PER_SEC",
      description = "Disk throughput assumed where /proc/diskstats cannot be read (default: 100MiB).")
  String ioCapacity;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PeerMain())
        .setParameterExceptionHandler((ex, a) -> { // one line and a hint, as cairn and cairn-tracker print
          ex.getCommandLine().getErr().println("cairn-peer: " + ex.getMessage());
          ex.getCommandLine().getErr().println("Try 'cairn-peer --help' for more information.");
          return 2;
        })
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          cmd.getErr().println("cairn-peer: " + e.getMessage());
          return 1;
        })
        .execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PeerRuntime peer = PeerRuntime.start(config());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      peer.close();
      stopped.countDown();
    }, "peer-shutdown"));
    System.out.println("cairn-peer " + peer.daemon().id() + " serving on " + peer.daemon().address() + ", tracker "
        + peer.config().tracker());
    System.out.flush();
    stopped.await();
    return 0;
  }

  /**
   * Parses peer settings exactly as {@code cairn-peer.jar} does (flags, {@code --config} YAML), for
   * programs that run a peer in-process.
   *
   * @throws CommandLine.ParameterException naming the bad or missing setting
   */
  public static PeerConfig parse(String... args) throws IOException {
    PeerMain m = new PeerMain();
    new CommandLine(m).parseArgs(args);
    return m.config();
  }

  /**
   * Parses settings given as the YAML file's keys and text values ({@code tracker}, {@code data},
   * {@code quota}, ...; the {@code donor-} keys are left alone), as {@code --config} would read them
   * from {@code where}: the donor app's settings file, already read.
   *
   * @throws CommandLine.ParameterException naming the bad, unknown or missing setting
   */
  public static PeerConfig fromSettings(Map<String, String> settings, String where) throws IOException {
    PeerMain m = new PeerMain();
    CommandLine cl = new CommandLine(m);
    return m.config(cl, PeerSettingsFile.known(settings, where, cl));
  }

  PeerConfig config() throws IOException {
    CommandLine cl = new CommandLine(this);
    return config(cl, configFile == null ? Map.of() : PeerSettingsFile.read(configFile, cl));
  }

  /** The flags over {@code file}'s settings over the defaults ({@link PeerConfig.Builder}). */
  private PeerConfig config(CommandLine cl, Map<String, String> file) throws IOException {
    try {
      String trackerUrl = pick(tracker, file, "tracker", null);
      String dataDir = data != null ? data.toString() : file.get("data");
      String tokenPath = tokenFile != null ? tokenFile.toString() : file.get("token-file");
      String quotaText = pick(quota, file, "quota", null);
      List<String> missing = new ArrayList<>();
      if (trackerUrl == null) {
        missing.add("--tracker");
      }
      if (dataDir == null) {
        missing.add("--data");
      }
      if (tokenPath == null) {
        missing.add("--token-file");
      }
      if (quotaText == null) {
        missing.add("--quota");
      }
      if (!missing.isEmpty()) {
        throw new CommandLine.ParameterException(cl, "missing required settings: " + String.join(", ", missing));
      }
      PeerConfig.Builder b = PeerConfig.builder(org.cairn.core.api.TrackerEndpoints.parse(trackerUrl), Path.of(dataDir),
          GridToken.readFile(Path.of(tokenPath)), ByteSize.parse(quotaText));
      set(listen, file, "listen", v -> b.listen(HostPort.parse(v)));
      set(advertise, file, "advertise", b::advertise);
      set(minFree, file, "min-free", v -> b.minFreeBytes(ByteSize.parse(v)));
      set(heartbeatInterval, file, "heartbeat-interval", v -> b.heartbeatInterval(Durations.parse(v)));
      set(text(tau1), file, "tau1", v -> b.tau1(number("tau1", v)));
      set(text(tau2), file, "tau2", v -> b.tau2(number("tau2", v)));
      set(text(maxClients), file, "max-clients", v -> b.maxClients((int) number("max-clients", v)));
      set(text(paused), file, "paused", v -> b.paused(bool("paused", v)));
      set(id, file, "id", b::id);
      set(bandwidthCap, file, "bandwidth-cap", v -> b.bandwidthCap(ByteSize.parse(v)));
      set(uploadCap, file, "upload-cap", v -> b.uploadCap(ByteSize.parse(v)));
      set(downloadCap, file, "download-cap", v -> b.downloadCap(ByteSize.parse(v)));
      set(ioCapacity, file, "io-capacity", v -> b.ioCapacity(ByteSize.parse(v)));
      set(gcInterval, file, "gc-interval", v -> b.gcInterval(Durations.parse(v)));
      set(gcGrace, file, "gc-grace", v -> b.gcGrace(Durations.parse(v)));
      set(repairRate, file, "repair-rate", v -> b.repairRate(ByteSize.parse(v)));
      set(text(repairThreads), file, "repair-threads", v -> b.repairThreads((int) number("repair-threads", v)));
      set(scrubPeriod, file, "scrub-period", v -> b.scrubPeriod(Durations.parse(v)));
      set(scrubMaxRate, file, "scrub-max-rate", v -> b.scrubMaxRate(ByteSize.parse(v)));
      set(text(reportDiskRate), file, "report-disk-rate", v -> b.reportDiskRate(bool("report-disk-rate", v)));
      set(softSyncInterval, file, "soft-sync-interval", v -> b.softSyncInterval(Durations.parse(v)));
      b.connectionLimits(connectionLimits(file));
      tuning(b);
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
  }

  /**
   * The tuning knobs that are system properties rather than flags, read here at the peer's root and
   * nowhere below it: {@code -Dcairn.peer.directIo=false} (segments through the page cache) and
   * {@code -Dcairn.tls.wrapBytes=N} (the TLS wrap size of the data server).
   */
  private static void tuning(PeerConfig.Builder b) {
    b.directIo(bool(DIRECT_IO_PROPERTY, System.getProperty(DIRECT_IO_PROPERTY, "true")));
    b.tlsWrapBytes(org.cairn.core.net.DataTls.wrapBytes());
  }

  /** Turns direct I/O (O_DIRECT segment writes) off when {@code false}. */
  public static final String DIRECT_IO_PROPERTY = "cairn.peer.directIo";

  private static String text(Object flag) {
    return flag == null ? null : flag.toString();
  }

  /** Applies the flag, else the file's value, when either is given; else the builder keeps its default. */
  private static void set(String flag, Map<String, String> file, String key, java.util.function.Consumer<String> apply) {
    String v = pick(flag, file, key, null);
    if (v != null) {
      apply.accept(v);
    }
  }

  /** The data plane's connection caps ({@code max-connections}, {@code max-connections-per-address}), the other limits default. */
  private ConnectionLimits connectionLimits(Map<String, String> file) {
    ConnectionLimits d = ConnectionLimits.DEFAULT;
    int total = (int) number("max-connections", pick(maxConnections == null ? null : maxConnections.toString(), file,
        "max-connections", Integer.toString(d.maxConnections())));
    int perAddress = (int) number("max-connections-per-address", pick(maxConnectionsPerAddress == null ? null
        : maxConnectionsPerAddress.toString(), file, "max-connections-per-address", Integer.toString(d.maxPerAddress())));
    return ConnectionLimits.of(total, perAddress);
  }

  private static double number(String key, String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, was '" + text + "'", e);
    }
  }

  private static boolean bool(String key, String text) {
    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(key + " must be true or false, was '" + text + "'");
    }
    return Boolean.parseBoolean(text);
  }

  private static String pick(String flag, Map<String, String> file, String key, String fallback) {
    if (flag != null) {
      return flag;
    }
    return file.getOrDefault(key, fallback);
  }
}
