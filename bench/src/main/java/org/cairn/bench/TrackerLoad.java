package org.cairn.bench;

import java.io.PrintWriter;
import java.util.List;
import org.cairn.cli.context.Root;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code cairn benchmark heartbeats|commits}: load on a running tracker (or tracker group), and those stages' options
 * (a mixin of {@link BenchmarkCommand}, so they are the benchmark command's own on its command line).
 */
final class TrackerLoad {
  @Option(names = "--peers", paramLabel = "N", defaultValue = "2000",
      description = "Simulated peers for the heartbeats stage (default: ${DEFAULT-VALUE}).")
  int peers;

  @Option(names = "--rate", paramLabel = "PER_SEC", defaultValue = "5000",
      description = "Heartbeats per second for the heartbeats stage (default: ${DEFAULT-VALUE}).")
  int rate;

  @Option(names = "--in-flight", paramLabel = "N", defaultValue = "256",
      description = "Most outstanding heartbeat requests (default: ${DEFAULT-VALUE}).")
  int inFlight;

  @Option(names = "--chunks", paramLabel = "N", defaultValue = "1000",
      description = "Chunks per version for the commits stage (default: ${DEFAULT-VALUE}).")
  int chunks;

  @Option(names = "--versions", paramLabel = "N", defaultValue = "200",
      description = "Versions the commits stage commits (default: ${DEFAULT-VALUE}).")
  int versions;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "0",
      description = "Commits the commits stage makes first and does not count (JIT warm-up; default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--holders", paramLabel = "N", defaultValue = "300",
      description = "catalog: simulated donors holding the pieces (default: ${DEFAULT-VALUE}).")
  int holders;

  @Option(names = "--fill", paramLabel = "CHUNKS", defaultValue = "10000000",
      description = "catalog: chunks to commit in all (default: ${DEFAULT-VALUE}).")
  long fill;

  @Option(names = "--milestones", paramLabel = "CHUNKS", split = ",", defaultValue = "1000000,10000000",
      description = "catalog: chunk counts at which to report commit latency and the tracker's memory (default: ${DEFAULT-VALUE}).")
  long[] milestones;

  @Option(names = "--fail-fraction", paramLabel = "F", defaultValue = "0.2",
      description = "catalog: fraction of the holders that stop heartbeating at once after the fill (default: ${DEFAULT-VALUE}).")
  double failFraction;

  @Option(names = "--tracker-pid", paramLabel = "PID", description = "catalog: the tracker's process, for its resident memory.")
  Long trackerPid;

  @Option(names = "--tracker-data", paramLabel = "DIR", description = "catalog: the tracker's data directory, for its size.")
  java.nio.file.Path trackerData;

  @Option(names = "--commit-times", paramLabel = "FILE",
      description = "catalog: also write each commit's start (ms since the epoch) and latency (ms) to FILE, one CSV line each, to "
          + "match slow commits with the tracker's GC log or its own log.")
  java.nio.file.Path commitTimes;

  int catalog(CommandLine cl, Root parent, boolean json) throws Exception {
    if (parent == null || parent.tracker() == null || parent.tokenFile() == null) {
      throw new CommandLine.ParameterException(cl,
          "the catalog stage needs a running tracker (with --repair-grace 0s): cairn --tracker URL --token-file FILE benchmark catalog");
    }
    if (holders < 6 || fill < 1 || chunks < 1 || !(failFraction > 0 && failFraction < 1)) {
      throw new CommandLine.ParameterException(cl, "--holders must be >= 6, --fill and --chunks positive, --fail-fraction in (0, 1)");
    }
    java.net.URI url = java.net.URI.create(parent.tracker().split(",")[0].strip());
    // a long timeout: the durability answer walks the whole chunk index when its last scan is stale
    new CatalogScale(new org.cairn.core.api.TrackerClient(List.of(url), org.cairn.core.security.GridToken.readFile(parent.tokenFile()),
        java.time.Duration.ofMinutes(10)),
        StageOutput.to(cl.getOut(), json)).run(holders, fill, milestones, chunks, failFraction,
        new CatalogScale.Tracker(trackerPid, trackerData), commitTimes);
    return 0;
  }

  int heartbeats(CommandLine cl, Root parent, double seconds, boolean json) throws Exception {
    if (parent == null || parent.tracker() == null || parent.tokenFile() == null) {
      throw new CommandLine.ParameterException(cl,
          "the heartbeats stage needs a running tracker: cairn --tracker URL --token-file FILE benchmark heartbeats");
    }
    if (peers < 1 || rate < 1 || inFlight < 1 || !(seconds > 0)) {
      throw new CommandLine.ParameterException(cl, "--peers, --rate, --in-flight and --seconds must be positive");
    }
    PrintWriter out = cl.getOut();
    StageResult r = new HeartbeatLoad(java.net.URI.create(parent.tracker()),
        org.cairn.core.security.GridToken.readFile(parent.tokenFile())).run(peers, rate, seconds, inFlight);
    StageOutput.to(out, json).accept(r);
    return 0;
  }

  int commits(CommandLine cl, Root parent, boolean json) throws Exception {
    if (parent == null || parent.tracker() == null || parent.tokenFile() == null) {
      throw new CommandLine.ParameterException(cl,
          "the commits stage needs a running tracker: cairn --tracker URL --token-file FILE benchmark commits");
    }
    if (chunks < 1 || versions < 1 || warmup < 0) {
      throw new CommandLine.ParameterException(cl, "--chunks and --versions must be positive, --warmup not negative");
    }
    List<java.net.URI> trackers = new java.util.ArrayList<>();
    for (String u : parent.tracker().split(",")) {
      trackers.add(java.net.URI.create(u.strip()));
    }
    StageResult r = new CommitLoad(CommitLoad.client(trackers,
        org.cairn.core.security.GridToken.readFile(parent.tokenFile()))).run(warmup, versions, chunks);
    PrintWriter out = cl.getOut();
    StageOutput.to(out, json).accept(r);
    return 0;
  }
}
