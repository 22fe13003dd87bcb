package org.cairn.sim.durability;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.cairn.core.api.TrackerHttp;
import org.cairn.sim.churn.ChurnParameters;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -cp cairn-sim.jar org.cairn.sim.durability.DurabilityMain}: a month of churn in simulated time against
 * core's placement and the tracker's repair policy; prints the table (or JSON) and writes the plots.
 */
@Command(name = "durability-sim", mixinStandardHelpOptions = true, version = "cairn-sim 0.1.0", sortOptions = false,
    description = {"Replays a month of donor churn (owners, lab outages, donors leaving, disks failing) in simulated time, in",
        "process, against core's placement (FALCON, random) and the tracker's repair policy, with pieces as bookkeeping",
        "and repair times from a per-donor uplink and the measured rebuild rate. Prints versions unreadable and lost,",
        "the fewest live pieces seen and repair traffic per donor per day for each coding. See docs/simulation.md.",
        "Exit status: 0 done, 2 an error."})
public final class DurabilityMain implements Callable<Integer> {
  @Option(names = "--donors", defaultValue = "2000", description = "Donors (default: ${DEFAULT-VALUE}).")
  int donors;

  @Option(names = "--days", defaultValue = "30", description = "Days simulated (default: ${DEFAULT-VALUE}).")
  int days;

  @Option(names = "--warmup-days", defaultValue = "7", description = "Days of history before the first version (default: ${DEFAULT-VALUE}).")
  int warmupDays;

  @Option(names = "--jobs", defaultValue = "200", description = "Jobs checkpointing (default: ${DEFAULT-VALUE}).")
  int jobs;

  @Option(names = "--interval", defaultValue = "60", paramLabel = "MINUTES", description = "Checkpoint interval (default: ${DEFAULT-VALUE}).")
  int interval;

  @Option(names = "--version-mb", defaultValue = "200", description = "A version's stored size, MB (default: ${DEFAULT-VALUE}).")
  double versionMb;

  @Option(names = "--keep", defaultValue = "3", description = "Versions each job keeps (default: ${DEFAULT-VALUE}).")
  int keep;

  @Option(names = "--quota-gb", defaultValue = "20", description = "Each donor's quota, GB (default: ${DEFAULT-VALUE}).")
  double quotaGb;

  @Option(names = "--uplink-mbit", defaultValue = "10", description = "A donor's uplink, Mbit/s (default: ${DEFAULT-VALUE}).")
  double uplinkMbit;

  @Option(names = "--rebuild-mbps", defaultValue = "9.5", description = "MB/s one repair worker rebuilds (default: ${DEFAULT-VALUE}).")
  double rebuildMbps;

  @Option(names = "--grace", defaultValue = "10", paramLabel = "MINUTES", description = "Repair grace period (default: ${DEFAULT-VALUE}).")
  int grace;

  @Option(names = "--scan", defaultValue = "60", paramLabel = "SECONDS", description = "Repair scan interval (default: ${DEFAULT-VALUE}).")
  int scan;

  @Option(names = "--slot", defaultValue = "15", paramLabel = "MINUTES", description = "History slot (default: ${DEFAULT-VALUE}).")
  int slot;

  @Option(names = "--window", defaultValue = "7", paramLabel = "DAYS", description = "CRLS history window (default: ${DEFAULT-VALUE}).")
  int window;

  @Option(names = "--refresh", defaultValue = "24", paramLabel = "HOURS", description = "CRLS reused for (default: ${DEFAULT-VALUE}).")
  int refresh;

  @Option(names = "--schemes", split = ",", defaultValue = "code:4+2,code:6+3,code:4+4,replicate:2,replicate:3",
      description = "Codings compared (default: ${DEFAULT-VALUE}).")
  List<String> schemes;

  @Option(names = "--placements", split = ",", defaultValue = "falcon,capped,random",
      description = {"Placements compared: falcon (the paper's), capped[:FACTOR] (FALCON with core's per-donor cap, as",
          "the tracker places; FACTOR times the grid's mean, default 8), random (default: ${DEFAULT-VALUE})."})
  List<String> placements;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the world and the runs (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--threads", defaultValue = "2", description = "Runs at once (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--outages-per-day", paramLabel = "RATE",
      description = "Outages per lab per day, instead of churn.properties' (a harsher or milder month).")
  Double outagesPerDay;

  @Option(names = "--lifetime-days", paramLabel = "DAYS",
      description = "Donors' mean lifetime, instead of durability.properties' (Anderson & Fedak's 91 days).")
  Double lifetimeDays;

  @Option(names = "--plots", paramLabel = "DIR", description = "Write the PNG plots into DIR.")
  Path plots;

  @Option(names = "--json", description = "Print the figures as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    DurabilitySettings s = new DurabilitySettings(donors, days, warmupDays, jobs, interval, versionMb, keep, quotaGb, uplinkMbit,
        rebuildMbps, grace, scan, slot, window, refresh, schemes, placements, seed);
    ChurnParameters churn = ChurnParameters.published();
    if (outagesPerDay != null) {
      churn = churn.withOutages(outagesPerDay);
    }
    LongTermParameters longTerm = LongTermParameters.published();
    if (lifetimeDays != null) {
      longTerm = new LongTermParameters(lifetimeDays, longTerm.replacementDaysMean(), longTerm.diskLossesPerYear(),
          longTerm.diskRepairDaysMean());
    }
    DurabilityStudy.Result r = DurabilityStudy.run(s, churn, longTerm, threads);
    if (plots != null) {
      for (Path p : DurabilityPlots.write(r, plots)) {
        System.err.println("wrote " + p);
      }
    }
    System.out.print(json ? TrackerHttp.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n" : DurabilityReport.text(r));
    return 0;
  }

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    CommandLine cli = new CommandLine(new DurabilityMain());
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof IllegalArgumentException) {
        cmd.getErr().println("durability-sim: " + e.getMessage());
        return 2;
      }
      throw e;
    });
    System.exit(cli.execute(args));
  }
}
