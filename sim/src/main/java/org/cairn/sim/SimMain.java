package org.cairn.sim;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.cairn.core.api.TrackerHttp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar cairn-sim.jar}: simulated donors against a running tracker (group); prints what it measured. */
@Command(name = "cairn-sim", mixinStandardHelpOptions = true, version = "cairn-sim 0.1.0", sortOptions = false,
    description = {"Runs N simulated donors (no data bytes) against a running tracker or tracker group over its real API: each",
        "enrolls with a donor token issued for the run, heartbeats as itself at the tracker's interval with the state a churn",
        "model gives it (diurnal owner activity, lab outages), then times placement as a client and fails a fraction of the",
        "donors at once (whole labs) and times the tracker marking them DOWN. See docs/simulation.md.",
        "Exit status: 0 nothing lost, 3 something lost (a donor not registered, a heartbeat failed, a live donor shown DOWN,",
        "the failed ones not all DOWN in time), 2 an error."})
public final class SimMain implements Callable<Integer> {
  @Option(names = "--tracker", required = true, split = ",", paramLabel = "URL",
      description = "The tracker's URL, or every member's of a group (comma-separated).")
  List<URI> trackers;

  @Option(names = "--token-file", required = true, paramLabel = "FILE",
      description = "The operator's (admin) token, with the CA's #sha256: pin for https; the run issues its own donor and client tokens with it.")
  Path tokenFile;

  @Option(names = "--donors", defaultValue = "1000", description = "Simulated donors (default: ${DEFAULT-VALUE}).")
  int donors;

  @Option(names = "--minutes", defaultValue = "1", description = "Steady heartbeating measured, in minutes (default: ${DEFAULT-VALUE}).")
  double minutes;

  @Option(names = "--connections", defaultValue = "64", description = "Connections the donors share (default: ${DEFAULT-VALUE}).")
  int connections;

  @Option(names = "--threads", defaultValue = "2", description = "Event-loop threads (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--placements", defaultValue = "200", description = "Placement queries timed (default: ${DEFAULT-VALUE}; 0: none).")
  int placements;

  @Option(names = "--fail-fraction", defaultValue = "0.2",
      description = "Fraction of donors failed at once, whole labs (default: ${DEFAULT-VALUE}; 0: none).")
  double failFraction;

  @Option(names = "--down-limit", defaultValue = "120", paramLabel = "SECONDS",
      description = "How long to wait for the tracker to show the failed donors DOWN (default: ${DEFAULT-VALUE}).")
  int downLimit;

  @Option(names = "--tracker-pid", split = ",", paramLabel = "PID",
      description = "The trackers' process ids on this machine, in --tracker's order: the leader's CPU is measured.")
  List<Long> trackerPids = new ArrayList<>();

  @Option(names = "--time-scale", defaultValue = "60",
      description = "Simulated time per real time for the churn model (default: ${DEFAULT-VALUE}: a minute is an hour).")
  double timeScale;

  @Option(names = "--start-hour", defaultValue = "9", description = "Simulated hour of day the run starts at (default: ${DEFAULT-VALUE}).")
  int startHour;

  @Option(names = "--no-outages", description = "No lab outages while heartbeating (owners' activity only).")
  boolean noOutages;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the churn and of the failed labs (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--json", description = "Print the figures as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    SimSettings settings = new SimSettings(trackers, tokenFile, donors, minutes, connections, threads, placements, failFraction, downLimit,
        trackerPids, timeScale, startHour, !noOutages, seed);
    SimReport r = new SimRun(settings, System.err).run();
    System.out.print(json ? TrackerHttp.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n" : r.text());
    return r.nothingLost() ? 0 : 3;
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new SimMain());
    cli.setExecutionExceptionHandler((e, line, parsed) -> {
      String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      line.getErr().println("cairn-sim: " + m);
      return 2;
    });
    System.exit(cli.execute(args));
  }
}
