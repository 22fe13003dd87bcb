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
import java.util.Random;

/*
 * The seed papers' experiments on the emulated grid (issue #7). Each experiment is one command:
 *
 *   it/testbed/experiment.sh NAME [--out docs/benchmarks] [--work /tmp/cairn-exp] [--image-mb N]
 *
 * and writes docs/benchmarks/NAME.csv, NAME.md (the table, the command, notes) and NAME*.png
 * (XChart). Checkpoint images are real process memory images (gcore of it/tools/memimage's
 * mutator), made once per size into the work directory.
 */
public final class Experiments {
  private static final String USAGE = """
      usage: experiment.sh NAME [--out DIR] [--work DIR] [--image-mb N] [--compression SPEC] [--root DIR]
        (--image-mb: the mutator's working set, default 16; its gcore image is about 70 MB larger.
         --compression: for the network experiments, default none so the whole image crosses the links)
        concurrency  store time vs concurrent clients 1..8, falcon/random/dedicated/pessimistic (FALCON Fig. 6)
        failures     store time with 0..3 donors killed during the store (Fig. 7)
        load         store time with one donor under 0..100 % background I/O, with and without load balancing (Fig. 8)
        retrieval    fetch time with 0..2 slow holders, parallel any-m vs first-m (Fig. 9)
        ablation     recovery time without compression, load balancing among holders, or pipelined transfer (Fig. 10)
        stripe       stdchk OAB and ASB vs stripe width, pessimistic and optimistic writes (stdchk Fig. 2-6)
        chunksize    dedup ratio and throughput for 64 KiB, 256 KiB, 1 MiB chunks on successive images (stdchk Table 3)
        threads      pipeline throughput vs worker threads on this machine (Fig. 11-12)
        makespan     makespan under evictions: Cairn vs dedicated-local vs dedicated-remote (Fig. 3)
        tau2         store time with one slow-disk donor under 0..100 % background I/O, used or avoided (the tau2 question);
                     --disk-rate BYTES_PER_SEC (default 20MB) is every donor's disk, --alt-rate RATE (default 40mbit)
                     the link of d6, the alternate used when d1 is left out, --load-writers N,N,... (default 2,8)
                     the load generator's intensities (direct writers of 1 MiB blocks, its queue depth),
                     --tau2-variants V,V,... (default always,falcon) which donor settings to time: always (d1 always
                     used: thresholds off, no disk rate), falcon (thresholds, no disk rate), rate (disk rate, thresholds
                     off), both (disk rate and thresholds: the peers' defaults); other than the default, the results are
                     tau2-V-V.*
      Options for every testbed experiment: --delay D (e.g. 5ms) gives every link D of delay each way
      (grid.sh up --delay; a round trip between two hosts takes 4 D) and names the results NAME-delayD.*;
      --ram-disks SIZE puts each donor's data on its own tmpfs (grid.sh up --ram-disks) instead of this machine's
      one shared disk, and names the results NAME-ramdisks.*
        sizes        store (falcon/random/dedicated) and fetch (any-m, first-m, one slow holder) time vs image size;
                     --sizes MB,MB,... gives the mutator working sets (default 16,256,1024: about 86 MB, 0.3 GB, 1.1 GB images)
      """;

  private final Path root;
  private final Path out;
  private final Path work;
  private final int imageMb;
  /** Compression for the network experiments: none by default, so the wire carries the whole image (gcore images are mostly zero pages). */
  private final String compression;
  /** Mutator working sets (MB) for the sizes experiment. */
  private int[] sizes = {16, 256, 1024};
  /** Every donor's disk rate in the tau2 experiment (grid.sh up --disk-rate). */
  private String diskRate = "20MB";
  /** The alternate donor's link in the tau2 experiment. */
  private String altRate = "40mbit";
  /** The load generator's writers (queue depth) in the tau2 experiment, one series each. */
  private int[] loadWriters = {2, 8};
  /** The tau2 experiment's variants (see USAGE). */
  private List<String> tau2Variants = List.of("always", "falcon");
  /** Link delay each way for every testbed of the run (experiment.sh --delay D), or null. */
  private String delay;
  /** tmpfs size per donor for every testbed of the run (experiment.sh --ram-disks SIZE), or null. */
  private String ramDisks;

  private Experiments(Path root, Path out, Path work, int imageMb, String compression) {
    this.root = root;
    this.out = out;
    this.work = work;
    this.imageMb = imageMb;
    this.compression = compression;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || args[0].startsWith("-")) {
      System.err.print(USAGE);
      System.exit(2);
    }
    Path root = Path.of("").toAbsolutePath();
    Path out = null;
    Path work = Path.of("/tmp/cairn-exp");
    int mb = 16;
    String compression = "none";
    int[] sizes = null;
    String diskRate = null;
    String altRate = null;
    int[] loadWriters = null;
    String delay = null;
    String ramDisks = null;
    List<String> tau2Variants = null;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--out" -> out = Path.of(args[++i]);
        case "--work" -> work = Path.of(args[++i]);
        case "--image-mb" -> mb = Integer.parseInt(args[++i]);
        case "--compression" -> compression = args[++i];
        case "--root" -> root = Path.of(args[++i]).toAbsolutePath();
        case "--disk-rate" -> diskRate = args[++i];
        case "--alt-rate" -> altRate = args[++i];
        case "--delay" -> delay = args[++i];
        case "--ram-disks" -> ramDisks = args[++i];
        case "--tau2-variants" -> tau2Variants = List.of(args[++i].split(","));
        case "--load-writers" -> loadWriters = Arrays.stream(args[++i].split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray();
        case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray();
        default -> {
          System.err.println("unknown option " + args[i] + "\n" + USAGE);
          System.exit(2);
        }
      }
    }
    Experiments e = new Experiments(root, out == null ? root.resolve("docs/benchmarks") : out, work, mb, compression);
    if (sizes != null) {
      e.sizes = sizes;
    }
    if (diskRate != null) {
      e.diskRate = diskRate;
    }
    if (altRate != null) {
      e.altRate = altRate;
    }
    if (loadWriters != null) {
      e.loadWriters = loadWriters;
    }
    if (tau2Variants != null) {
      for (String v : tau2Variants) {
        if (!TAU2_VARIANTS.containsKey(v)) {
          System.err.println("--tau2-variants: unknown variant " + v + " (always, falcon, rate, both)");
          System.exit(2);
        }
      }
      e.tau2Variants = tau2Variants;
    }
    if (delay != null) {
      if (!delay.matches("[0-9.]+(ms|us|s)")) {
        System.err.println("--delay: give a duration with its unit, e.g. 5ms");
        System.exit(2);
      }
      // every link waits D each way (a round trip between two hosts: 4 D); results go to NAME-delayD.*
      Testbed.extraUpArgs = List.of("--delay", delay);
      Report.variant = "-delay" + delay;
      Report.variantHeading = ", links with " + delay + " delay each way";
      e.delay = delay;
    }
    if (ramDisks != null) {
      if (!ramDisks.matches("[0-9]+[KMG]")) {
        System.err.println("--ram-disks: give a tmpfs size, e.g. 4G");
        System.exit(2);
      }
      // each donor on its own tmpfs instead of all on this machine's one disk; results go to NAME-ramdisks.*
      List<String> extra = new ArrayList<>(Testbed.extraUpArgs);
      extra.addAll(List.of("--ram-disks", ramDisks));
      Testbed.extraUpArgs = List.copyOf(extra);
      Report.variant += "-ramdisks";
      Report.variantHeading += ", each donor on its own tmpfs";
      e.ramDisks = ramDisks;
    }
    Files.createDirectories(work);
    switch (args[0]) {
      case "concurrency" -> e.concurrency();
      case "failures" -> e.failures();
      case "load" -> e.load();
      case "retrieval" -> e.retrieval();
      case "ablation" -> e.ablation();
      case "stripe" -> e.stripe();
      case "chunksize" -> e.chunksize();
      case "threads" -> e.threads();
      case "makespan" -> e.makespan();
      case "sizes" -> e.sizes();
      case "tau2" -> e.tau2();
      default -> {
        System.err.println("unknown experiment " + args[0] + "\n" + USAGE);
        System.exit(2);
      }
    }
  }

  private String command(String name) {
    return "it/testbed/experiment.sh " + name + (imageMb != 16 ? " --image-mb " + imageMb : "")
        + (compression.equals("none") ? "" : " --compression " + compression) + (delay == null ? "" : " --delay " + delay) + (ramDisks == null ? "" : " --ram-disks " + ramDisks);
  }

  /**
   * Real memory images of about {@code mb} MB each: gcore of the mutator at successive
   * checkpoints. Made once and kept in the work directory.
   */
  private List<Path> images(int mb, int count) throws IOException, InterruptedException {
    Path dir = work.resolve("images-" + mb + "mb");
    List<Path> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(dir.resolve("image-" + i + ".core"));
    }
    if (out.stream().allMatch(Files::exists)) {
      return out;
    }
    // grid, particles, table, scratch in MB: the mutator's regions; the rest of the core is small
    int grid = Math.max(1, mb * 3 / 8);
    int particles = Math.max(1, mb * 3 / 16);
    int table = Math.max(1, mb / 16);
    int scratch = Math.max(1, mb * 3 / 8);
    Process p = new ProcessBuilder("bash", root.resolve("it/tools/memimage/make-images.sh").toString(), dir.toString(),
        Integer.toString(count), Integer.toString(grid), Integer.toString(particles), Integer.toString(table),
        Integer.toString(scratch)).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("make-images.sh failed (needs gcc and gdb)");
    }
    return out;
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  private static double max(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  /** Stores concurrently from clients c1..cN; returns each store's JSON. */
  private List<JsonNode> storeConcurrently(Testbed tb, int clients, Path image, String appPrefix, String... extra)
      throws IOException, InterruptedException {
    List<Process> ps = new ArrayList<>();
    List<Path> outs = new ArrayList<>();
    List<Path> copies = new ArrayList<>();
    for (int i = 1; i <= clients; i++) {
      copies.add(fresh(image, appPrefix + "-c" + i)); // each client its own new bytes, as different jobs
    }
    try {
      for (int i = 1; i <= clients; i++) {
        Path o = tb.dir().resolve("store-" + appPrefix + "-" + i + ".json");
        List<String> args = new ArrayList<>(List.of("store", copies.get(i - 1).toString(), "--app", appPrefix + "-c" + i, "--node", "n",
            "--json", "--compression", compression));
        args.addAll(Arrays.asList(extra));
        ps.add(tb.cairnAsync("c" + i, o, args.toArray(String[]::new)));
        outs.add(o);
      }
      List<JsonNode> results = new ArrayList<>();
      for (int i = 0; i < ps.size(); i++) {
        int exit = ps.get(i).waitFor();
        if (exit != 0) {
          throw new IllegalStateException("store from c" + (i + 1) + " exited " + exit + ": "
              + Files.readString(outs.get(i).resolveSibling(outs.get(i).getFileName() + ".err")));
        }
        results.add(Testbed.JSON.readTree(Files.readString(outs.get(i))));
      }
      return results;
    } finally {
      for (Process p : ps) {
        p.destroyForcibly(); // a store left running after another failed; no-op for the finished ones
      }
      for (Path c : copies) {
        Files.deleteIfExists(c);
      }
    }
  }

  // ---------------------------------------------------------------- 1: concurrency (FALCON Fig. 6)

  void concurrency() throws Exception {
    Path image = images(imageMb, 1).get(0);
    // the default image keeps the experiment's name; other sizes are reported beside it (concurrency-NNNmb)
    int reps = imageMb == 16 ? 2 : 1;
    String name = imageMb == 16 ? "concurrency" : "concurrency-" + Math.round(Files.size(image) / 1e6) + "mb";
    Report r = new Report(name, "policy", "clients", "meanStoreSeconds", "maxStoreSeconds", "storesUsingDsl", "sentMBPerStore");
    List<Double> firstStores = new ArrayList<>();
    try (Testbed tb = new Testbed(root, work.resolve("tb-concurrency"))) {
      tb.up("--donors", "6", "--clients", "8", "--slow-donor", "8mbit");
      // every client's first store probes the donors it never measured (FALCON §3.2.2); measured apart, as a one-time cost
      for (JsonNode j : storeConcurrently(tb, 1, image, "warm")) {
        firstStores.add(j.path("seconds").asDouble());
      }
      for (int c = 2; c <= 8; c++) {
        Testbed.Run w = tb.cairn("c" + c, "store", image.toString(), "--app", "warm-c" + c, "--node", "n", "--json", "--compression",
            compression, "--redundancy", "code:3+2").check("warm-up store");
        firstStores.add(w.json().path("seconds").asDouble());
      }
      String[] policies = {"falcon", "random", "dedicated:d1", "pessimistic"};
      int run = 0;
      for (String policy : policies) {
        for (int clients : new int[] {1, 2, 4, 8}) {
          List<Double> secs = new ArrayList<>();
          List<Double> maxes = new ArrayList<>();
          double sent = 0;
          int dsl = 0;
          for (int rep = 0; rep < reps; rep++) {
            run++;
            String placement = policy.equals("random") ? "random:" + run : policy;
            List<JsonNode> res = storeConcurrently(tb, clients, image, "conc" + run, "--placement", placement, "--redundancy", "code:3+2");
            List<Double> these = new ArrayList<>();
            for (JsonNode j : res) {
              these.add(j.path("seconds").asDouble());
              sent += j.path("sentBytes").asDouble() / 1e6;
              if (j.path("hosts").toString().contains("\"d6\"")) {
                dsl++;
              }
            }
            secs.addAll(these);
            maxes.add(max(these));
          }
          r.row(policy, clients, mean(secs), mean(maxes), dsl + "/" + (reps * clients), sent / (reps * clients));
        }
      }
    }
    r.note(String.format(Locale.ROOT, "Each client's very first store (before the measured runs, FALCON placement) took %.1f s on average: "
        + "it probes the donors this client never measured, the DSL donor's 1 MiB probe alone about 1 s.", mean(firstStores)));
    r.note("Testbed: 6 donors (d1..d5 at 100 Mbit/s, d6 the \"laptop on DSL\" at 8 Mbit/s), 8 clients at 100 Mbit/s, all in network "
        + "namespaces on this 2-core machine; code:3+2, compression " + compression + "; each client stores its own app and a fresh copy of the image (no dedup across clients, and every donor writes what it gets). "
        + "`dedicated:d1` sends all five pieces to one donor; `pessimistic` probes every donor before every store, then ranks as FALCON.");
    r.note("Each point is the mean over " + reps + " repetition" + (reps > 1 ? "s" : "") + " (random: a different seed each time); the image's " + Math.round(Files.size(image) / 1e6)
        + " MB contain many zero pages, which dedup within the image, so a store sends sentMBPerStore of unique chunks (x5/3 in pieces).");
    r.lineChart(out, "", "Store time vs concurrent clients (" + Math.round(Files.size(image) / 1e6) + " MB image, code:3+2)",
        "policy", "clients", "meanStoreSeconds", "concurrent clients", "mean store time (s)");
    r.write(out, "Experiment 1: store time as concurrent clients grow (FALCON Fig. 6)"
        + (imageMb == 16 ? "" : ", " + Math.round(Files.size(image) / 1e6) + " MB image"), command("concurrency"));
  }

  // ---------------------------------------------------------------- 2: failures (Fig. 7)

  void failures() throws Exception {
    Path image = images(imageMb, 1).get(0);
    Report r = new Report("failures", "policy", "failedDonors", "storeSeconds", "hostsReplaced", "imageMB");
    try (Testbed tb = new Testbed(root, work.resolve("tb-failures"))) {
      // 30 Mbit/s links: a store lasts about 10 s, so the kills land in the transfer (the tracker learns of a
      // donor's first pieces only from its next heartbeat, up to a second later)
      tb.up("--donors", "8", "--clients", "1", "--rate", "30mbit");
      int run = 0;
      for (String policy : new String[] {"falcon", "random"}) {
        for (int failed = 0; failed <= 3; failed++) {
          run++;
          String placement = policy.equals("random") ? "random:" + (100 + run) : policy;
          // a first store with the same placement learns which donors it uses (falcon's ranking and
          // random:SEED are deterministic while every donor is up); the measured store loses `failed` of them
          Path dryCopy = fresh(image, "fdry" + run);
          Testbed.Run dryRun = tb.cairn("c1", "store", dryCopy.toString(), "--app", "fdry" + run, "--node", "n", "--json", "--compression", compression,
              "--placement", placement, "--redundancy", "code:3+2").check("store");
          Files.deleteIfExists(dryCopy);
          Path copy = fresh(image, "fail" + run);
          JsonNode dry = dryRun.json();
          List<String> victims = new ArrayList<>();
          dry.path("hosts").forEach(h -> victims.add(h.asText()));
          List<String> kill = victims.subList(0, failed);
          Path o = tb.dir().resolve("fail-" + run + ".json");
          long t0 = System.nanoTime();
          Process store = tb.cairnAsync("c1", o, "store", copy.toString(), "--app", "fail" + run, "--node", "n", "--json", "--compression", compression,
              "--placement", placement, "--redundancy", "code:3+2");
          if (!kill.isEmpty()) {
            // 40 % into the store's expected wall time (from the dry run, same size): mid-transfer
            Thread.sleep((long) (dryRun.seconds() * 400));
            for (String d : kill) {
              tb.grid("kill", d).check("kill " + d);
            }
          }
          int exit = store.waitFor();
          double wall = (System.nanoTime() - t0) / 1e9;
          Files.deleteIfExists(copy);
          if (exit != 0) {
            r.row(policy, failed, Double.NaN, "store failed: " + Files.readString(o.resolveSibling(o.getFileName() + ".err")).strip(),
                Files.size(image) / 1e6);
          } else {
            JsonNode j = Testbed.JSON.readTree(Files.readString(o));
            r.row(policy, failed, j.path("seconds").asDouble(), j.path("replaced").size(), Files.size(image) / 1e6);
          }
          for (String d : kill) {
            tb.grid("start", d).check("start " + d);
          }
          tb.awaitRunning(8, 60);
          System.out.printf(Locale.ROOT, "failures: run %d took %.1f s wall%n", run, wall);
        }
      }
    }
    r.note("Testbed: 8 donors and 1 client at 30 Mbit/s; code:3+2 (5 of the 8 donors hold a piece of every chunk). The donors killed "
        + "(SIGKILL, at 40 % of the store's wall time measured on the dry run) are hosts of the store, learnt from a store of the same size just before (each store writes a fresh copy of the image, so no donor holds its pieces already). Each failed host is "
        + "replaced by the next alternate and only its unacknowledged pieces are sent again (FALCON §3.3 step 6).");
    r.lineChart(out, "", "Store time with donors failing during the store (code:3+2)", "policy", "failedDonors", "storeSeconds",
        "donors killed during the store", "store time (s)");
    r.write(out, "Experiment 2: store time with 0–3 donors failing during the store (FALCON Fig. 7)", command("failures"));
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
  private static final Map<String, String[]> TAU2_VARIANTS = Map.of(
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
  private static final class StatePoller {
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

  /**
   * A copy of the image that no earlier store holds: every 64 KiB block starts with 16 bytes derived
   * from the tag. Peers skip writing a fragment they already hold (its key is its content), so
   * storing one image again under a new app sends every byte but writes none; experiments about the
   * donors' disks must store new bytes every time. Blocks that were equal stay equal (the stamp does
   * not depend on the block's position), so the image's own duplicate chunks (its zero pages) still
   * dedup within the copy, as in the original. With {@code unique}, the stamp also carries the block's
   * index, so no two blocks are equal and the whole image is sent and written (the tau2 and stripe experiments,
   * where the disks' load is the point). Delete the copy after the store.
   */
  private Path fresh(Path image, String tag) throws IOException {
    return fresh(image, tag, false);
  }

  private Path fresh(Path image, String tag, boolean unique) throws IOException {
    Path dir = Files.createDirectories(work.resolve("fresh"));
    Path out = dir.resolve(tag + ".img");
    long salt = (long) tag.hashCode() * 0x9E3779B97F4A7C15L;
    long salt2 = Long.rotateLeft(salt, 29) ^ 0xC2B2AE3D27D4EB4FL;
    byte[] block = new byte[64 * 1024];
    try (java.io.InputStream in = Files.newInputStream(image); java.io.OutputStream o = Files.newOutputStream(out)) {
      long index = 0;
      int n;
      while ((n = in.readNBytes(block, 0, block.length)) > 0) {
        if (n >= 16) {
          java.nio.ByteBuffer.wrap(block).putLong(salt).putLong(unique ? salt2 ^ index : salt2);
        }
        index++;
        o.write(block, 0, n);
      }
    }
    return out;
  }

  /** Stores a fresh copy of the image (see {@link #fresh}) as the app. */
  private JsonNode store(Testbed tb, Path image, String app) throws IOException, InterruptedException {
    return store(tb, image, app, false);
  }

  private JsonNode store(Testbed tb, Path image, String app, boolean unique) throws IOException, InterruptedException {
    Path copy = fresh(image, app, unique);
    try {
      return tb.cairn("c1", "store", copy.toString(), "--app", app, "--node", "n", "--json", "--compression", compression,
          "--redundancy", "code:3+2").check("store").json();
    } finally {
      Files.deleteIfExists(copy);
    }
  }

  /** The device's busy time over the next {@code millis} ms, in percent, from /proc/diskstats (field 13, io_ticks). */
  private static double busyPercent(String device, long millis) throws IOException, InterruptedException {
    long t0 = ioTicks(device);
    long start = System.nanoTime();
    Thread.sleep(millis);
    long t1 = ioTicks(device);
    return 100.0 * (t1 - t0) / ((System.nanoTime() - start) / 1e6);
  }

  private static long ioTicks(String device) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/diskstats"))) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 13 && f[2].equals(device)) {
        return Long.parseLong(f[12]);
      }
    }
    throw new IOException("no device " + device + " in /proc/diskstats");
  }

  /** The disk rate the donor last reported (bytes/s; 0: unknown or not reported). */
  private static double diskRateOf(Testbed tb, String donor) throws IOException, InterruptedException {
    for (JsonNode p : tb.peers()) {
      if (donor.equals(p.path("id").asText())) {
        return p.path("diskWriteBytesPerSecond").asDouble(0);
      }
    }
    return 0;
  }

  private static String stateOf(Testbed tb, String donor) throws IOException, InterruptedException {
    for (JsonNode p : tb.peers()) {
      if (donor.equals(p.path("id").asText())) {
        return p.path("state").asText();
      }
    }
    return "?";
  }

  private static void awaitStateOf(Testbed tb, String donor, String want) throws IOException, InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (stateOf(tb, donor).equals(want)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(donor + " did not become " + want + " within 30 s (it is " + stateOf(tb, donor) + ")");
  }

  private static void restartDonorsWith(Testbed tb, int donors, String args) throws IOException, InterruptedException {
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
  private static String awaitState(Testbed tb, String donor, int pct, boolean balancing) throws IOException, InterruptedException {
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

  // ---------------------------------------------------------------- 1+4 at several image sizes

  void sizes() throws Exception {
    Report r = new Report("sizes", "variant", "imageMB", "seconds", "imageMBps", "usedDsl");
    try (Testbed tb = new Testbed(root, work.resolve("tb-sizes"))) {
      tb.up("--donors", "6", "--clients", "1", "--slow-donor", "8mbit");
      // the client's first store probes the donors (a one-time cost, measured in experiment 1), so it is not measured here
      tb.cairn("c1", "store", images(sizes[0], 1).get(0).toString(), "--app", "warm", "--node", "n", "--json", "--compression", compression,
          "--redundancy", "code:3+2").check("warm-up store");
      Path target = tb.dir().resolve("fetched.img");
      int run = 0;
      for (int mb : sizes) {
        Path image = images(mb, 1).get(0);
        double sizeMb = Files.size(image) / 1e6;
        List<String> falconHosts = new ArrayList<>();
        String falconApp = null;
        for (String policy : new String[] {"falcon", "random", "dedicated:d1"}) {
          run++;
          String app = "size" + run;
          String placement = policy.equals("random") ? "random:" + run : policy;
          // a fresh copy each time: donors skip pieces they already hold, so a second store of the same image writes less
          Path copy = fresh(image, app);
          JsonNode j;
          try {
            j = tb.cairn("c1", "store", copy.toString(), "--app", app, "--node", "n", "--json", "--compression", compression,
                "--placement", placement, "--redundancy", "code:3+2").check("store").json();
          } finally {
            Files.deleteIfExists(copy);
          }
          double s = j.path("seconds").asDouble();
          r.row("store, " + policy, sizeMb, s, sizeMb / s, j.path("hosts").toString().contains("\"d6\""));
          if (policy.equals("falcon")) {
            falconApp = app;
            j.path("hosts").forEach(h -> falconHosts.add(h.asText()));
          }
        }
        for (int slow = 0; slow <= 1; slow++) {
          // holder of data piece 0 of every chunk cut to 8 Mbit/s: the worst case for reading only m
          tb.grid("shape", falconHosts.get(0), slow == 1 ? "8mbit" : "100mbit").check("shape");
          for (String mode : slow == 0 ? new String[] {"all"} : new String[] {"all", "first-m"}) {
            JsonNode j = tb.cairn("c1", "fetch", "--app", falconApp, "--node", "n", "-o", target.toString(), "--read", mode, "--json")
                .check("fetch").json();
            double s = j.path("seconds").asDouble();
            r.row("fetch " + mode + (slow == 1 ? ", 1 slow holder" : ""), sizeMb, s, sizeMb / s, false);
          }
        }
        tb.grid("shape", falconHosts.get(0), "100mbit").check("shape");
        Files.deleteIfExists(target);
      }
    }
    r.note("Testbed as in experiment 1 (6 donors, d6 the DSL laptop at 8 Mbit/s, others and the client at 100 Mbit/s), one client, "
        + "code:3+2, compression " + compression + ". Images: gcore of the mutator with working sets of " + Arrays.toString(sizes)
        + " MB. Each store is a new app and a fresh copy of the image (no dedup against earlier stores, and no piece a donor already "
        + "holds; zero pages still dedup within the image). Fetches read the "
        + "falcon-placed version; with one slow holder, the holder of data piece 0 of every chunk is cut to 8 Mbit/s. One run per point.");
    r.lineChart(out, "", "Store and fetch time vs image size (code:3+2)", "variant", "imageMB", "seconds", "image size (MB)", "time (s)");
    r.write(out, "Experiments 1 and 4 at several image sizes", "it/testbed/experiment.sh sizes --sizes "
        + String.join(",", Arrays.stream(sizes).mapToObj(Integer::toString).toList()));
  }

  // ---------------------------------------------------------------- 4: retrieval (Fig. 9)

  void retrieval() throws Exception {
    Path image = images(imageMb, 1).get(0);
    Report r = new Report("retrieval", "read", "slowHolders", "fetchSeconds", "imageMB");
    try (Testbed tb = new Testbed(root, work.resolve("tb-retrieval"))) {
      tb.up("--donors", "5", "--clients", "1");
      JsonNode stored = tb.cairn("c1", "store", image.toString(), "--app", "ret", "--node", "n", "--json", "--redundancy", "code:3+2", "--compression", compression)
          .check("store").json();
      List<String> hosts = new ArrayList<>();
      stored.path("hosts").forEach(h -> hosts.add(h.asText()));
      Path target = tb.dir().resolve("fetched.img");
      for (int slow = 0; slow <= 2; slow++) {
        // the holders of data pieces 0..slow-1 become slow (a loaded desktop): the worst case for reading only m
        for (int i = 0; i < slow; i++) {
          tb.grid("shape", hosts.get(i), "8mbit").check("shape");
        }
        for (String mode : new String[] {"all", "hedged", "first-m"}) {
          List<Double> secs = new ArrayList<>();
          for (int rep = 0; rep < 2; rep++) {
            JsonNode j = tb.cairn("c1", "fetch", "--app", "ret", "--node", "n", "-o", target.toString(), "--read", mode, "--json")
                .check("fetch").json();
            secs.add(j.path("seconds").asDouble());
          }
          r.row(mode.equals("all") ? "parallel any m of n" : mode.equals("hedged") ? "hedged (m, +1 when slow)"
              : "first m (sequential fallback)", slow, mean(secs), Files.size(image) / 1e6);
        }
        for (int i = 0; i < slow; i++) {
          tb.grid("shape", hosts.get(i), "100mbit").check("shape");
        }
      }
      Files.deleteIfExists(target);
    }
    r.note("Testbed: 5 donors and 1 client at 100 Mbit/s, code:3+2 (every donor holds one piece of every chunk). A slow holder's link is "
        + "cut to 8 Mbit/s while the fetch runs (grid.sh shape), standing in for a loaded or distant desktop. Mean of 2 fetches. "
        + "`--read all` asks all 5 holders of each chunk and uses the first 3 pieces; `hedged` asks 3 and one more whenever a holder fails "
        + "or, after a piece arrived, none follows for twice the chunk's time so far; `first-m` asks 3 and one more only on failure.");
    r.lineChart(out, "", "Fetch time with slow holders (code:3+2)", "read", "slowHolders", "fetchSeconds",
        "slow holders (of 5)", "fetch time (s)");
    r.write(out, "Experiment 4: retrieval with slow holders, parallel vs first-m (FALCON Fig. 9)", command("retrieval"));
  }

  // ---------------------------------------------------------------- 5: ablation (Fig. 10)

  void ablation() throws Exception {
    Path image = images(imageMb, 1).get(0);
    Report r = new Report("ablation", "variant", "slowHolders", "recoverySeconds");
    try (Testbed tb = new Testbed(root, work.resolve("tb-ablation"))) {
      tb.up("--donors", "5", "--clients", "1");
      // The same image stored uncompressed, measured, then compressed, measured. (Until session 4 peers keyed
      // pieces by chunk id and index only, so the second app's pieces replaced the first's; keys now carry the
      // piece's tag, and both stay.)
      Path target = tb.dir().resolve("restored.img");
      String[][] variants = {
          {"Cairn (compression, hedged any-m reads, pipelined)", "auto", "hedged", "0"},
          {"without compression", "none", "hedged", "0"},
          {"without load balancing among holders (first m)", "auto", "first-m", "0"},
          {"without pipelining (one chunk at a time)", "auto", "hedged", "1"},
          {"none of the three", "none", "first-m", "1"}};
      for (String compression : new String[] {"none", "auto"}) {
        JsonNode stored = tb.cairn("c1", "store", image.toString(), "--app", "abl-" + compression, "--node", "n", "--json", "--redundancy",
            "code:3+2", "--compression", compression).check("store").json();
        String slowHost = stored.path("hosts").get(0).asText(); // holds data piece 0 of every chunk
        for (int slow = 0; slow <= 1; slow++) {
          tb.grid("shape", slowHost, slow == 1 ? "8mbit" : "100mbit").check("shape");
          for (String[] v : variants) {
            if (!v[1].equals(compression)) {
              continue;
            }
            List<Double> secs = new ArrayList<>();
            for (int rep = 0; rep < 2; rep++) {
              JsonNode j = tb.cairn("c1", "fetch", "--app", "abl-" + compression, "--node", "n", "-o", target.toString(), "--read", v[2],
                  "--in-flight", v[3], "--json").check("fetch").json();
              secs.add(j.path("seconds").asDouble());
            }
            r.row(v[0], slow, mean(secs));
          }
        }
        tb.grid("shape", slowHost, "100mbit").check("shape");
      }
      Files.deleteIfExists(target);
    }
    r.note("Testbed: 5 donors and 1 client at 100 Mbit/s, code:3+2; recovery = fetching the " + Math.round(Files.size(image) / 1e6)
        + " MB gcore image on the client (mean of 2). With one slow holder, the holder of data piece 0 of every chunk is cut to 8 Mbit/s "
        + "(a loaded or distant desktop). Load balancing here is the choice among holders at read time (hedged any-m vs the m data "
        + "holders); donor load states act at placement (experiment 3).");
    r.barChart(out, "", "Recovery time: what each part contributes", "variant", "slowHolders", "recoverySeconds", "recovery (fetch) time (s)");
    r.write(out, "Experiment 5: contribution of compression, load balancing and pipelined transfer to recovery time (FALCON Fig. 10)",
        command("ablation"));
  }

  // ---------------------------------------------------------------- 7: stripe width (stdchk)

  /** Stores per point in the stripe experiment; the table shows the medians. */
  private static final int STRIPE_REPS = 3;

  void stripe() throws Exception {
    Path image = images(imageMb, 1).get(0);
    double mb = Files.size(image) / 1e6;
    Report r = new Report("stripe", "write", "stripeWidth", "oabMBps", "asbMBps", "oabMin", "oabMax", "wireMBps");
    try (Testbed tb = new Testbed(root, work.resolve("tb-stripe"))) {
      tb.up("--donors", "8", "--clients", "1", "--rate", "1gbit");
      int run = 0;
      for (int w = 1; w <= 7; w++) {
        for (String write : new String[] {"pessimistic", "optimistic"}) {
          double[] oabs = new double[STRIPE_REPS];
          double[] asbs = new double[STRIPE_REPS];
          double[] wires = new double[STRIPE_REPS];
          for (int rep = 0; rep < STRIPE_REPS; rep++) {
            run++;
            String app = "stripe" + run;
            long t0 = System.nanoTime();
            // every block unique: the wire and the disks carry the whole image, as stdchk's files (no dedup)
            Path copy = fresh(image, app, true);
            JsonNode j;
            try {
              j = tb.cairn("c1", "store", copy.toString(), "--app", app, "--node", "n", "--json", "--redundancy",
                  "code:" + w + "+1", "--write", write, "--compression", "none").check("store").json();
            } finally {
              Files.deleteIfExists(copy);
            }
            double oab = mb / j.path("seconds").asDouble();
            double asb = oab;
            if (write.equals("optimistic")) {
              // achieved storage bandwidth: until the tracker has completed the redundancy (the version is healthy)
              double started = (System.nanoTime() - t0) / 1e9 - j.path("seconds").asDouble();
              for (int i = 0; i < 600; i++) {
                JsonNode vs = tb.api("/api/v1/versions?app=" + app + "&node=n");
                if (vs.size() > 0 && "healthy".equals(vs.get(0).path("status").asText())) {
                  break;
                }
                Thread.sleep(100);
              }
              asb = mb / ((System.nanoTime() - t0) / 1e9 - started);
            }
            oabs[rep] = oab;
            asbs[rep] = asb;
            wires[rep] = j.path("sentBytes").asDouble() / 1e6 / j.path("seconds").asDouble();
          }
          Arrays.sort(oabs);
          Arrays.sort(asbs);
          Arrays.sort(wires);
          r.row(write, w, oabs[STRIPE_REPS / 2], asbs[STRIPE_REPS / 2], oabs[0], oabs[STRIPE_REPS - 1], wires[STRIPE_REPS / 2]);
        }
      }
    }
    r.note("Testbed: 8 donors and 1 client, every link 1 Gbit/s; code:W+1 (W data pieces striped over W donors plus one parity "
        + "piece; Cairn has no redundancy-free mode), compression none. OAB = image size / time until the store returns; ASB = image "
        + "size / time until the data is stored with its full redundancy. wireMBps = the pieces the client sent "
        + "(the image x (W+1)/W) / time until the store returns: the rate to compare with the client's 125 MB/s link. Each store writes a "
        + "fresh copy of the image with every 64 KiB block stamped by store and position, so nothing dedups (as stdchk's files) and the "
        + "donors write all of it. Pessimistic: the store returns when all W+1 pieces are "
        + "durable (OAB = ASB); optimistic: when the W data pieces are durable, the tracker's repair queue then adds the parity. "
        + STRIPE_REPS + " stores per point: the medians, with the OAB's min and max. The image is " + Math.round(mb) + " MB.");
    r.lineChart(out, "oab", "Observed application bandwidth vs stripe width", "write", "stripeWidth", "oabMBps",
        "stripe width W (data pieces, code:W+1)", "OAB (MB/s)");
    r.lineChart(out, "asb", "Achieved storage bandwidth vs stripe width", "write", "stripeWidth", "asbMBps",
        "stripe width W (data pieces, code:W+1)", "ASB (MB/s)");
    r.write(out, "Experiment 7a: OAB and ASB vs stripe width (stdchk Fig. 2–6)", command("stripe"));
  }

  // ---------------------------------------------------------------- 7b: chunk size (stdchk Table 3)

  void chunksize() throws Exception {
    List<Path> imgs = images(imageMb, 5);
    Report r = new Report("chunksize", "chunkSize", "image", "dedupPercent", "storeMBps", "sentMB");
    Path jar = root.resolve("client-cli/target/cairn.jar");
    Path gridDir = work.resolve("grid-chunksize");
    if (Files.exists(gridDir.resolve("grid.json"))) {
      run(List.of("java", "-jar", jar.toString(), "grid", "down", "--dir", gridDir.toString()));
    }
    deleteTree(gridDir);
    String up = run(List.of("java", "-jar", jar.toString(), "grid", "up", "--dir", gridDir.toString(), "--peers", "4"));
    String url = up.lines().filter(l -> l.startsWith("tracker:")).findFirst().orElseThrow().replace("tracker:", "").strip();
    try {
      for (String cs : new String[] {"64KiB", "256KiB", "1MiB"}) {
        for (int i = 0; i < imgs.size(); i++) {
          String json = run(List.of("java", "-jar", jar.toString(), "--tracker", url, "--token-file", gridDir.resolve("grid.token").toString(),
              "store", imgs.get(i).toString(), "--app", "cs-" + cs, "--node", "n", "--chunk-size", cs, "--redundancy", "code:3+1", "--json"));
          JsonNode j = Testbed.JSON.readTree(json.substring(json.indexOf('{')));
          double dedup = 100.0 * (j.path("chunks").asLong() - j.path("newChunks").asLong()) / Math.max(1, j.path("chunks").asLong());
          r.row(cs, i, dedup, j.path("mbPerSec").asDouble(), j.path("sentBytes").asLong() / 1e6);
        }
      }
    } finally {
      run(List.of("java", "-jar", jar.toString(), "grid", "down", "--dir", gridDir.toString()));
    }
    r.note("Local grid (`cairn grid up --peers 4`, loopback), code:3+1, compression auto; five successive gcore images of the mutator "
        + "(" + Math.round(Files.size(imgs.get(0)) / 1e6) + " MB each, mutator working set " + imageMb + " MB). dedupPercent = share of the image's chunks already held by the grid for the app; "
        + "image 0 has only duplicates within itself.");
    r.barChart(out, "", "Chunks found by dedup, per successive image", "chunkSize", "image", "dedupPercent", "chunks deduplicated (%)");
    r.write(out, "Experiment 7b: dedup and throughput vs chunk size on successive images (stdchk Table 3)", command("chunksize"));
  }

  // ---------------------------------------------------------------- 6: threads (Fig. 11-12)

  void threads() throws Exception {
    List<Path> imgs = images(imageMb, 1);
    Report r = new Report("threads", "stage", "threads", "mbPerSec");
    Path jar = root.resolve("client-cli/target/cairn.jar");
    for (int t = 1; t <= 4; t++) {
      for (boolean gcore : new boolean[] {true, false}) {
        List<String> cmd = new ArrayList<>(List.of("java", "-jar", jar.toString(), "benchmark", "pipeline", "--threads", Integer.toString(t),
            "--redundancy", "code:3+2", "--json"));
        if (gcore) {
          cmd.addAll(List.of("--data-file", imgs.get(0).toString()));
        }
        for (String line : run(cmd).lines().toList()) {
          if (line.startsWith("{")) {
            JsonNode j = Testbed.JSON.readTree(line);
            r.row(j.path("operation").asText() + (gcore ? " (gcore image)" : " (synthetic image)"), t, j.path("mbPerSec").asDouble());
          }
        }
      }
    }
    r.note("`cairn benchmark pipeline` (chunk, hash, compress, code; and back), code:3+2, compression auto, with b worker threads on "
        + "this 2-core machine, on one gcore image (mostly zero pages: compresses about 45:1) and on the synthetic 256 MiB memory image.");
    r.lineChart(out, "", "Pipeline throughput vs worker threads (2 cores)", "stage", "threads", "mbPerSec", "worker threads b",
        "MB/s of image");
    r.write(out, "Experiment 6: worker threads for the chunk pipeline (FALCON Fig. 11–12)", command("threads"));
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

  private static double fetchSeconds(Testbed tb, String app, String read) throws IOException, InterruptedException {
    Path target = tb.dir().resolve("mk.img");
    JsonNode j = tb.cairn("c1", "fetch", "--app", app, "--node", "n", "-o", target.toString(), "--json", "--read", read).check("fetch").json();
    Files.deleteIfExists(target);
    return j.path("seconds").asDouble();
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

  private static String run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue() + " (its errors are above)");
    }
    return out;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
