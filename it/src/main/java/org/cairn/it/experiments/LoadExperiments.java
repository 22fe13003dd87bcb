package org.cairn.it.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Store time with a donor under background I/O, balanced or not (FALCON Fig. 8), and the tau2 threshold on slow disks. */
final class LoadExperiments extends Lab {
  LoadExperiments(Lab settings) {
    super(settings);
  }

  // ---------------------------------------------------------------- 3: load (Fig. 8)

  void load() throws Exception {
    Path image = images(imageMb, 1).get(0);
    Report r = new Report("load", "balancing", "loadPercent", "storeSeconds", "loadedDonorUsed", "loadedDonorState");
    for (boolean balancing : new boolean[] {true, false}) {
      try (Testbed tb = new Testbed(root, work.resolve("tb-load"))) {
        tb.up("--donors", "6", "--clients", "1", "--disks", "2G");
        if (!balancing) {
          // the same grid with load balancing switched off: thresholds above 100 % and no disk rate reported
          restartDonorsWith(tb, 6, "--tau1 0.999 --tau2 1 --report-disk-rate false");
        }
        // d1 gets the best link, so FALCON wants it unless its load state says otherwise
        tb.grid("shape", "d1", "1gbit").check("shape");
        tb.grid("shape", "c1", "1gbit").check("shape");
        int run = 0;
        for (int pct : new int[] {0, 25, 50, 75, 90, 100}) {
          run++;
          tb.grid("load", "d1", Integer.toString(pct)).check("load");
          String state = awaitState(tb, "d1", pct, balancing);
          JsonNode j = store(tb, image, "load-" + balancing + "-" + run);
          boolean used = j.path("hosts").toString().contains("\"d1\"");
          r.row(balancing ? "with load balancing" : "without", pct, j.path("seconds").asDouble(), used, state);
        }
        tb.grid("load", "d1", "0");
      }
    }
    r.note("Testbed: 6 donors at 100 Mbit/s except d1 and the client at 1 Gbit/s (so placement prefers d1), each donor's data on its own loop device (grid.sh up --disks), code:3+2. "
        + "d1's disk gets a duty-cycle direct-I/O writer (grid.sh load d1 PCT). With load balancing the donor reports LOADED at "
        + "tau1 = 50 % and BUSY at tau2 = 80 % of disk busy time and placement avoids it, and it reports its disk's rate for Cairn's writes, "
        + "which caps its link's rate in placement; without, the thresholds are set above 100 % and no disk rate is reported. Each store "
        + "writes a fresh copy of the image (a peer does not write a fragment it already holds).");
    r.lineChart(out, "", "Store time with one donor under background I/O load", "balancing", "loadPercent", "storeSeconds",
        "background I/O load on one donor (% of time busy)", "store time (s)");
    r.write(out, "Experiment 3: store time with one donor under background I/O load (FALCON Fig. 8)", command("load"));
  }

  // ---------------------------------------------------------------- 3b: the tau2 threshold on slow disks

  /**
   * Experiment 3 showed the states but no cost, because the loop devices on this machine's disk are
   * far faster than the links. Here every donor's disk is throttled (grid.sh --disk-rate, shared with
   * its load generator), so a loaded donor really is slow. d1..d5 have fast links and d6, the only
   * alternate, a slow one: a store uses d1..d5 unless d1 is left out, and then it waits for d6.
   * For each load level on d1 the store is timed with d1 forced in (thresholds off) and with
   * FALCON's thresholds; the time without d1 (d1 down, d6 used) is the bar. The load at which
   * using d1 starts to cost more than leaving it out is the best threshold for this disk and
   * alternate. While each store runs the other donors' states are polled: they must stay RUNNING
   * (the peers do not count their own I/O as load).
   */
  /** tau2 variants: name -> {label, the donors' extra flags}. */
  static final Map<String, String[]> TAU2_VARIANTS = Map.of(
      "always", new String[] {"d1 always used", "--tau1 0.999 --tau2 1 --report-disk-rate false"},
      "falcon", new String[] {"FALCON thresholds", "--report-disk-rate false"},
      "rate", new String[] {"disk rate, no thresholds", "--tau1 0.999 --tau2 1"},
      "both", new String[] {"disk rate and thresholds", ""});

  void tau2() throws Exception {
    Path image = images(imageMb, 1).get(0);
    int reps = 3;
    boolean standard = tau2Variants.equals(List.of("always", "falcon"));
    Report r = new Report(standard ? "tau2" : "tau2-" + String.join("-", tau2Variants), "variant", "loadPercent", "storeSeconds", "minSeconds", "maxSeconds", "d1BusyPercent", "d1Used",
        "d1State", "othersStates", "d1DiskMBps");
    try (Testbed tb = new Testbed(root, work.resolve("tb-tau2"))) {
      // no repair while d1 is down for the bar: rebuilding d1's pieces (GBs by the end) onto the
      // throttled disks and d6's link would compete with the stores being timed
      tb.upWithEnv(Map.of("REPAIR_GRACE", "1h"), "--donors", "6", "--clients", "1", "--disks", "4G", "--disk-rate", diskRate, "--rate", "1gbit");
      tb.grid("shape", "d6", altRate).check("shape");
      String loop = Files.readString(tb.dir().resolve("disks/d1.dev")).strip().replace("/dev/", "");
      int[] run = {0};
      // the bar: d1 down, so the store goes to d2..d6
      java.util.function.Supplier<double[]> withoutD1 = () -> {
        try {
          tb.grid("kill", "d1").check("kill d1");
          awaitStateOf(tb, "d1", "DOWN");
          double[] t = new double[reps];
          for (int i = 0; i < reps; i++) {
            t[i] = store(tb, image, "tau2-" + (++run[0]), true).path("seconds").asDouble();
          }
          tb.grid("start", "d1").check("start d1");
          tb.awaitRunning(6, 60);
          return t;
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      };
      double[] bar = withoutD1.get();
      System.out.printf(Locale.ROOT, "tau2: without d1: %s s%n", java.util.Arrays.toString(bar));
      int[] levels = {0, 25, 50, 60, 70, 80, 90, 100};
      for (String key : tau2Variants) {
        restartDonorsWith(tb, 6, TAU2_VARIANTS.get(key)[1]);
        for (int writers : loadWriters) {
          String variant = TAU2_VARIANTS.get(key)[0] + ", load of " + writers + " writers";
          for (int pct : levels) {
            tb.grid("load", "d1", Integer.toString(pct), "--writers", Integer.toString(writers)).check("load");
            Thread.sleep(4000); // the peer's load state follows a few heartbeats later (1 s each)
            double busy = busyPercent(loop, 3000);
            String state = stateOf(tb, "d1");
            List<Double> times = new ArrayList<>();
            int used = 0;
            java.util.Set<String> others = new java.util.TreeSet<>();
            String failure = null;
            List<String> diskRates = new ArrayList<>();
            for (int i = 0; i < reps; i++) {
              diskRates.add(String.format(Locale.ROOT, "%.1f", diskRateOf(tb, "d1") / 1e6));
              String app = "tau2-" + (++run[0]);
              Path copy = fresh(image, app, true);
              StatePoller poller = new StatePoller(tb, "d1");
              Testbed.Run st;
              try {
                st = tb.cairn("c1", "store", copy.toString(), "--app", app, "--node", "n", "--json",
                    "--compression", compression, "--redundancy", "code:3+2");
              } finally {
                others.addAll(poller.stop());
                Files.deleteIfExists(copy);
              }
              if (st.exit() != 0) {
                // recorded, not fatal: which donors refused is the finding
                failure = "store failed: " + st.err().strip().lines().reduce((a, b) -> b).orElse("");
                continue;
              }
              JsonNode j = st.json();
              times.add(j.path("seconds").asDouble());
              used += j.path("hosts").toString().contains("\"d1\"") ? 1 : 0;
            }
            java.util.Collections.sort(times);
            r.row(variant, pct, times.isEmpty() ? Double.NaN : times.get(times.size() / 2), times.isEmpty() ? Double.NaN : times.get(0),
                times.isEmpty() ? Double.NaN : times.get(times.size() - 1), busy, used + " of " + reps,
                failure == null ? state : state + "; " + failure, String.join(" ", others), String.join(" ", diskRates));
          }
        }
        tb.grid("load", "d1", "0").check("load off");
      }
      double[] bar2 = withoutD1.get();
      double[] all = java.util.stream.DoubleStream.concat(java.util.Arrays.stream(bar), java.util.Arrays.stream(bar2)).sorted().toArray();
      double median = (all[all.length / 2 - 1] + all[all.length / 2]) / 2;
      for (int pct : levels) {
        r.row("without d1 (d1 down, d6 used)", pct, median, all[0], all[all.length - 1], Double.NaN, "0", "DOWN", "", "");
      }
      r.note(String.format(Locale.ROOT, "Without d1 the stores took %s s (before the load runs) and %s s (after); the flat line is their median.",
          java.util.Arrays.toString(bar), java.util.Arrays.toString(bar2)));
    }
    r.note("Testbed: 6 donors, each on its own loop device whose backing-disk reads and writes are throttled to " + diskRate
        + "/s (blkio cgroup shared with the donor's load generator); d1..d5 and the client at 1 Gbit/s, d6 (the only alternate) at "
        + altRate + "; code:3+2, compression " + compression + ", the " + Math.round(Files.size(image) / 1e6)
        + " MB gcore image, each store a new app and a fresh copy of the image (every 64 KiB block stamped with the store and its position, "
        + "so the donors really write it, all of it: a peer does not write a fragment it already holds, and the image's zero pages no longer dedup). loadPercent is the load generator's duty cycle on d1 (grid.sh load d1 PCT "
        + "--writers N: N synchronous direct writers of 1 MiB blocks, sharing d1's throttled disk with the peer); d1BusyPercent is "
        + "d1's disk busy time measured from /proc/diskstats over 3 s just before the stores; d1State is what d1 reported then. "
        + reps + " stores per point: storeSeconds is the median, min and max beside it. othersStates: the states d2..d6 reported "
        + "while the stores ran (polled every 0.5 s); the peers leave their own I/O out of the load (DiskLoad), so Cairn's writes alone "
        + "do not make a donor LOADED or BUSY. d1DiskMBps: the rate d1's disk took Cairn's writes as d1 last reported it before each store "
        + "(peer --report-disk-rate; 0.0 when not reported or unknown), which placement uses to cap d1's link rate.");
    r.lineChart(out, "", "Store time with one slow-disk donor under load", "variant", "loadPercent", "storeSeconds",
        "background I/O duty cycle on d1 (%)", "store time (s), median of " + reps);
    r.write(out, "Experiment 3b: the tau2 threshold with slow donor disks (FALCON Fig. 8, §3.2.1)", "it/testbed/experiment.sh tau2"
        + (imageMb != 16 ? " --image-mb " + imageMb : "") + (diskRate.equals("20MB") ? "" : " --disk-rate " + diskRate)
        + (altRate.equals("40mbit") ? "" : " --alt-rate " + altRate) + (standard ? "" : " --tau2-variants " + String.join(",", tau2Variants)));
  }

  /** Polls the donors' states in the background; stop() returns the distinct "id=STATE" seen, except the excluded donor's. */
  static final class StatePoller {
    private final java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean stop;

    StatePoller(Testbed tb, String excluded) {
      thread = new Thread(() -> {
        while (!stop) {
          try {
            for (JsonNode p : tb.peers()) {
              String id = p.path("id").asText();
              if (!id.equals(excluded) && !"RUNNING".equals(p.path("state").asText())) {
                seen.add(id + "=" + p.path("state").asText());
              }
            }
            Thread.sleep(500);
          } catch (IOException e) {
            seen.add("poll failed: " + e.getMessage());
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "state-poller");
      thread.setDaemon(true);
      thread.start();
    }

    java.util.Set<String> stop() throws InterruptedException {
      stop = true;
      thread.join();
      return seen;
    }
  }

  /** The device's busy time over the next {@code millis} ms, in percent, from /proc/diskstats (field 13, io_ticks). */
  static double busyPercent(String device, long millis) throws IOException, InterruptedException {
    long t0 = ioTicks(device);
    long start = System.nanoTime();
    Thread.sleep(millis);
    long t1 = ioTicks(device);
    return 100.0 * (t1 - t0) / ((System.nanoTime() - start) / 1e6);
  }

  static long ioTicks(String device) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/diskstats"))) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 13 && f[2].equals(device)) {
        return Long.parseLong(f[12]);
      }
    }
    throw new IOException("no device " + device + " in /proc/diskstats");
  }

  /** The disk rate the donor last reported (bytes/s; 0: unknown or not reported). */
  static double diskRateOf(Testbed tb, String donor) throws IOException, InterruptedException {
    for (JsonNode p : tb.peers()) {
      if (donor.equals(p.path("id").asText())) {
        return p.path("diskWriteBytesPerSecond").asDouble(0);
      }
    }
    return 0;
  }

  static String stateOf(Testbed tb, String donor) throws IOException, InterruptedException {
    for (JsonNode p : tb.peers()) {
      if (donor.equals(p.path("id").asText())) {
        return p.path("state").asText();
      }
    }
    return "?";
  }

  static void awaitStateOf(Testbed tb, String donor, String want) throws IOException, InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (stateOf(tb, donor).equals(want)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(donor + " did not become " + want + " within 30 s (it is " + stateOf(tb, donor) + ")");
  }

  static void restartDonorsWith(Testbed tb, int donors, String args) throws IOException, InterruptedException {
    for (int d = 1; d <= donors; d++) {
      tb.grid("kill", "d" + d);
    }
    // the tracker must have noticed (heartbeat timeout) before "RUNNING" means the restarted donors
    for (int d = 1; d <= donors; d++) {
      awaitStateOf(tb, "d" + d, "DOWN");
    }
    for (int d = 1; d <= donors; d++) {
      tb.gridWithEnv(Map.of("DONOR_ARGS", args), "start", "d" + d).check("start d" + d);
    }
    tb.awaitRunning(donors, 60);
  }


  /** Waits (up to 20 s) for the donor's reported state to follow its load; returns the state seen. */
  static String awaitState(Testbed tb, String donor, int pct, boolean balancing) throws IOException, InterruptedException {
    String want = !balancing || pct < 50 ? "RUNNING" : pct < 80 ? "LOADED" : "BUSY";
    String state = "?";
    for (int i = 0; i < 100; i++) {
      for (JsonNode p : tb.peers()) {
        if (donor.equals(p.path("id").asText())) {
          state = p.path("state").asText();
        }
      }
      if (state.equals(want)) {
        return state;
      }
      Thread.sleep(200);
    }
    return state + " (expected " + want + ")";
  }
}
