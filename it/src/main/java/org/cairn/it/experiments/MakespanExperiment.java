package org.cairn.it.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/** Makespan under evictions: Cairn against dedicated local and remote storage (FALCON Fig. 3), measured costs in a simulated job. */
final class MakespanExperiment extends Lab {
  MakespanExperiment(Lab settings) {
    super(settings);
  }

  // ---------------------------------------------------------------- 8: makespan (Fig. 3)

  void makespan() throws Exception {
    Path image = images(imageMb, 1).get(0);
    double mb = Files.size(image) / 1e6;
    int clients = 4;
    Report m = new Report("makespan-costs", "target", "storeSeconds", "fetchSeconds");
    Map<String, double[]> costs = new java.util.LinkedHashMap<>();
    try (Testbed tb = new Testbed(root, work.resolve("tb-makespan"))) {
      // campus donors d1..d6 at 100 Mbit/s; d7 is the dedicated server every job uses
      tb.up("--donors", "7", "--clients", Integer.toString(clients));
      List<Double> cs = new ArrayList<>();
      for (JsonNode j : storeConcurrently(tb, clients, image, "mk-cairn", "--redundancy", "code:3+2")) {
        cs.add(j.path("seconds").asDouble());
      }
      costs.put("cairn", new double[] {mean(cs), fetchSeconds(tb, "mk-cairn-c1", "hedged")});
      int run = 0;
      for (String rate : new String[] {"100mbit", "20mbit"}) {
        run++;
        tb.grid("shape", "d7", rate).check("shape");
        List<Double> rs = new ArrayList<>();
        for (JsonNode j : storeConcurrently(tb, clients, image, "mk-remote" + run, "--redundancy", "replicate:1", "--placement", "dedicated:d7")) {
          rs.add(j.path("seconds").asDouble());
        }
        costs.put("dedicated-remote at " + rate, new double[] {mean(rs), fetchSeconds(tb, "mk-remote" + run + "-c1", "all")});
      }
    }
    costs.forEach((k, v) -> m.row(k, v[0], v[1]));
    m.write(out, "Experiment 8 inputs: measured checkpoint and restart costs with " + clients + " concurrent jobs (" + Math.round(mb)
        + " MB image)", command("makespan"));

    // Monte Carlo over eviction traces (FALCON Table 2: 1.3 evictions per hour), costs scaled to a 2 GB image
    double scale = 2000 / mb;
    double work = 10 * 3600;
    double rate = 1.3 / 3600;
    double downtime = 20 * 60;
    Report r = new Report("makespan", "strategy", "checkpointIntervalMin", "makespanHours", "improvementPercent");
    for (String remoteKey : List.of("dedicated-remote at 100mbit", "dedicated-remote at 20mbit")) {
      for (int ciMin : new int[] {15, 30, 60, 120}) {
        double ci = ciMin * 60.0;
        double[] c = costs.get("cairn");
        double[] d = costs.get(remoteKey);
        double remote = simulate(work, ci, rate, d[0] * scale, d[1] * scale, false, downtime, 7);
        double cairn = simulate(work, ci, rate, c[0] * scale, c[1] * scale, false, downtime, 7);
        double local = simulate(work, ci, rate, 2000 / 150.0, 2000 / 150.0, true, downtime, 7);
        String vs = remoteKey.replace("dedicated-remote at ", "vs remote@");
        r.row("cairn " + vs, ciMin, cairn / 3600, 100 * (remote - cairn) / remote);
        r.row("dedicated-local " + vs, ciMin, local / 3600, 100 * (remote - local) / remote);
        r.row(remoteKey, ciMin, remote / 3600, 0.0);
      }
    }
    double[] c = costs.get("cairn");
    r.note(String.format(Locale.ROOT, "Measured on the testbed (%d concurrent jobs, %.0f MB gcore image, compression %s): Cairn (code:3+2, "
        + "FALCON, hedged fetch) stores in %.1f s and fetches in %.1f s; the dedicated server (one donor holding one copy, its link shared "
        + "by all jobs) is measured on a 100 Mbit/s link (a server on the campus network) and on a 20 Mbit/s link (a remote server: "
        + "FALCON's dedicated server sits across a wide-area link). Costs are scaled linearly to a 2 GB image (x%.1f; the transfers are "
        + "link-bound) and fed to a simulation of a 10-hour job under evictions (Poisson, 1.3 per hour, FALCON Table 2), 1,000 seeded "
        + "traces per point. dedicated-local checkpoints to the local disk at 150 MB/s but after an eviction waits for its own desktop "
        + "to return (%.0f min) to restart; Cairn and dedicated-remote restart at once on another desktop. improvementPercent is the "
        + "makespan saved against the dedicated server of the same row group.", clients, mb, compression, c[0], c[1], scale,
        downtime / 60));
    r.lineChart(out, "", "Makespan of a 10-hour job under evictions (1.3/h), 2 GB checkpoints", "strategy", "checkpointIntervalMin",
        "makespanHours", "checkpoint interval (min)", "makespan (h)");
    r.write(out, "Experiment 8: makespan under evictions (FALCON Fig. 3)", command("makespan"));
  }

  /**
   * Mean makespan of a job needing {@code work} seconds of computation, checkpointing every {@code ci}
   * seconds (cost {@code store}, during which it does not compute), evicted at Poisson rate
   * {@code rate}; after an eviction it restarts from its last checkpoint after {@code fetch} seconds
   * (plus {@code downtime} when it must wait for the same host). An eviction during a checkpoint
   * loses that checkpoint.
   */
  static double simulate(double work, double ci, double rate, double store, double fetch, boolean waitForHost, double downtime,
      long seed) {
    Random rnd = new Random(seed);
    int runs = 1000;
    double total = 0;
    for (int run = 0; run < runs; run++) {
      double t = 0;
      double saved = 0; // work safely checkpointed
      double next = -Math.log(1 - rnd.nextDouble()) / rate; // time of the next eviction
      double done = 0; // work done since the last checkpoint
      boolean restarting = false;
      while (saved < work) {
        if (restarting) {
          double cost = fetch + (waitForHost ? downtime : 0);
          if (saved == 0) {
            cost = waitForHost ? downtime : 0; // nothing to fetch: start from the beginning
          }
          t += cost;
          next = t + (-Math.log(1 - rnd.nextDouble()) / rate);
          restarting = false;
          done = 0;
        }
        double segment = Math.min(ci, work - saved) - done;
        if (t + segment >= next) { // evicted while computing
          t = next;
          restarting = true;
          continue;
        }
        t += segment;
        done += segment;
        if (saved + done >= work) {
          saved = work;
          break;
        }
        if (t + store >= next) { // evicted while checkpointing
          t = next;
          restarting = true;
          continue;
        }
        t += store;
        saved += done;
        done = 0;
      }
      total += t;
    }
    return total / runs;
  }
}
