package org.cairn.peer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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

  @Option(names = "--gc-interval", paramLabel = "DURATION",
      description = "How often to check held fragments with the tracker for garbage (default: 10m).")
  String gcInterval;

  @Option(names = "--gc-grace", paramLabel = "DURATION",
      description = "How long a fragment must stay garbage before it is deleted (default: 1h; protects stores in flight).")
  String gcGrace;

  @Option(names = "--repair-rate", paramLabel = "BYTES_PER_SEC",
      description = "Limit on repair traffic this peer executes, read plus written (default: 32MiB; 0: none).")
  String repairRate;

  @Option(names = "--repair-threads", paramLabel = "N", description = "Repair jobs run at once (default: 2).")
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

  PeerConfig config() throws IOException {
    CommandLine cl = new CommandLine(this);
    Map<String, String> file = configFile == null ? Map.of() : readYaml(configFile, cl);
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
      List<URI> trackers = org.cairn.core.api.TrackerEndpoints.parse(trackerUrl);
      return new PeerConfig(
          trackers.get(0),
          Path.of(dataDir),
          HostPort.parse(pick(listen, file, "listen", "127.0.0.1:0")),
          pick(advertise, file, "advertise", null),
          ByteSize.parse(quotaText),
          ByteSize.parse(pick(minFree, file, "min-free", "1GiB")),
          GridToken.readFile(Path.of(tokenPath)),
          Durations.parse(pick(heartbeatInterval, file, "heartbeat-interval", "5s")),
          number("tau1", pick(tau1 == null ? null : tau1.toString(), file, "tau1", "0.5")),
          number("tau2", pick(tau2 == null ? null : tau2.toString(), file, "tau2", "0.8")),
          (int) number("max-clients", pick(maxClients == null ? null : maxClients.toString(), file, "max-clients", "8")),
          bool("paused", pick(paused == null ? null : paused.toString(), file, "paused", "false")),
          pick(id, file, "id", null),
          ByteSize.parse(pick(bandwidthCap, file, "bandwidth-cap", "0")),
          ByteSize.parse(pick(ioCapacity, file, "io-capacity", "100MiB")),
          Durations.parse(pick(gcInterval, file, "gc-interval", "10m")),
          Durations.parse(pick(gcGrace, file, "gc-grace", "1h")),
          ByteSize.parse(pick(repairRate, file, "repair-rate", "32MiB")),
          (int) number("repair-threads", pick(repairThreads == null ? null : repairThreads.toString(), file, "repair-threads", "2")),
          Durations.parse(pick(scrubPeriod, file, "scrub-period", "7d")),
          ByteSize.parse(pick(scrubMaxRate, file, "scrub-max-rate", "8MiB")),
          bool("report-disk-rate", pick(reportDiskRate == null ? null : reportDiskRate.toString(), file, "report-disk-rate", "true")),
          Durations.parse(pick(softSyncInterval, file, "soft-sync-interval", "1s")),
          trackers.subList(1, trackers.size()),
          connectionLimits(file));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
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

  /** Keys the peer leaves to the donor app that runs it (cairn-donor's rules: donor-hours, donor-busy-cpu, ...). */
  public static final String DONOR_PREFIX = "donor-";

  private static final List<String> KEYS = List.of("tracker", "data", "listen", "advertise", "quota", "min-free", "token-file",
      "heartbeat-interval", "tau1", "tau2", "max-clients", "paused", "id", "bandwidth-cap", "io-capacity", "gc-interval", "gc-grace",
      "repair-rate", "repair-threads", "scrub-period", "scrub-max-rate", "report-disk-rate",
      "soft-sync-interval", "max-connections", "max-connections-per-address");

  /** The file's settings, each a scalar read as text; a key without a value is as if absent. */
  private static Map<String, String> readYaml(Path file, CommandLine cl) throws IOException {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    Map<String, String> read;
    try (JsonParser p = yaml.createParser(file.toFile())) {
      JsonToken first = p.nextToken();
      if (first == null || first == JsonToken.VALUE_NULL) {
        return new HashMap<>(); // empty, or only comments
      }
      if (first != JsonToken.START_OBJECT) {
        throw new CommandLine.ParameterException(cl, "config file " + file + " must be a mapping of settings");
      }
      read = yaml.readValue(p, new TypeReference<LinkedHashMap<String, String>>() {});
    } catch (MismatchedInputException e) {
      throw new CommandLine.ParameterException(cl, "config file " + file + " must map each setting to one value ("
          + e.getOriginalMessage() + ")");
    } catch (IOException e) {
      throw new CommandLine.ParameterException(cl, "cannot read config file " + file + ": " + e.getMessage());
    }
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, String> e : read.entrySet()) {
      if (e.getKey().startsWith(DONOR_PREFIX)) {
        continue; // the donor app's own settings (its rules), in the same file
      }
      if (!KEYS.contains(e.getKey())) {
        throw new CommandLine.ParameterException(cl, "unknown setting '" + e.getKey() + "' in " + file + "; known: " + KEYS);
      }
      if (e.getValue() != null) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }
}
