package org.cairn.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.cairn.core.availability.Uptime;
import org.cairn.core.interval.CheckpointInterval;

/**
 * Work a checkpointed job loses per day on desktop-grid hosts with a fixed checkpoint interval against {@code auto}
 * ({@code cairn advise}'s interval, recomputed at every restart from the host's history so far), by simulation over
 * the tracker's history model: each host alternates UP runs (the job computes) and DOWN runs (evicted), its UP runs
 * drawn from a Weibull distribution (shape {@code k}; desktop availability has k below 1) whose scale is drawn per
 * host, log-uniformly between 20 minutes and 16 hours. Seeded, so the same arguments give the same table.
 *
 * <p>A run of U seconds with interval T and checkpoint cost C completes floor(U / (T + C)) checkpoints; the work
 * lost is U minus the work they saved, that is the checkpoints' own time plus the computation since the last one
 * (restart time is the same for every policy and left out). Auto starts each host with {@link #WARMUP_DAYS} of
 * history, as a host that has been heartbeating for two weeks has; it uses core's {@link Uptime} and
 * {@link CheckpointInterval}, the code {@code cairn advise} runs, with C known (the median of recent pauses).
 */
public final class IntervalSimulation {
  /** History the auto policy has before the measured days. */
  static final int WARMUP_DAYS = 14;
  static final double DAY = 86_400;

  /** One row: the policy's work lost per host-day (seconds) and checkpoints per host-day. */
  record Row(String model, double cost, String policy, double lostPerDay, double checkpointsPerDay) {}

  private IntervalSimulation() {}

  public static void main(String[] args) {
    int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int days = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    print(System.out, run(hosts, days, 66));
  }

  /** Every row of the table: Weibull k = 0.6 and exponential (k = 1) hosts, C = 5 s, 30 s, 120 s, each policy. */
  static List<Row> run(int hosts, int days, long seed) {
    List<Row> rows = new ArrayList<>();
    for (double k : new double[] {0.6, 1.0}) {
      for (double c : new double[] {5, 30, 120}) {
        for (String policy : new String[] {"10m", "1h", "auto"}) {
          rows.add(simulate(k, c, policy, hosts, days, seed));
        }
      }
    }
    return rows;
  }

  /** One policy on {@code hosts} hosts (the same hosts and runs for every policy: the seed decides them). */
  static Row simulate(double shape, double cost, String policy, int hosts, int days, long seed) {
    Random random = new Random(seed);
    double lost = 0;
    long checkpoints = 0;
    for (int h = 0; h < hosts; h++) {
      double scale = 1200 * Math.pow(48, random.nextDouble()); // 20 min .. 16 h
      Random runs = new Random(random.nextLong());
      double up = 0;
      int interruptions = 0;
      for (double t = 0; t < WARMUP_DAYS * DAY; ) {
        double u = weibull(runs, shape, scale);
        up += u;
        interruptions++;
        t += u + weibull(runs, shape, scale / 4);
      }
      for (double t = 0; t < days * DAY; ) {
        double interval = switch (policy) {
          case "10m" -> 600;
          case "1h" -> 3600;
          default -> CheckpointInterval.optimal(cost, Uptime.mean(up, interruptions, 4 * 3600)).seconds();
        };
        double u = weibull(runs, shape, scale);
        long k = (long) (u / (interval + cost));
        checkpoints += k;
        lost += u - k * interval;
        up += u;
        interruptions++;
        t += u + weibull(runs, shape, scale / 4);
      }
    }
    return new Row(shape == 1 ? "exponential" : "weibull k=" + shape, cost, policy, lost / hosts / days,
        (double) checkpoints / hosts / days);
  }

  private static double weibull(Random r, double shape, double scale) {
    return scale * Math.pow(-Math.log(1 - r.nextDouble()), 1 / shape);
  }

  static void print(PrintStream out, List<Row> rows) {
    out.println("| UP runs | C | interval | work lost per host-day | checkpoints per host-day |");
    out.println("|---|---|---|---|---|");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "| %s | %.0f s | %s | %.1f min | %.1f |%n", r.model(), r.cost(), r.policy(), r.lostPerDay() / 60,
          r.checkpointsPerDay());
    }
  }
}
