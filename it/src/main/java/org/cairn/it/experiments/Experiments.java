package org.cairn.it.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/*
 * The seed papers' experiments on the emulated grid. Each experiment is one command:
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

  private Experiments() {}

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
    Lab e = new Lab(root, out == null ? root.resolve("docs/benchmarks") : out, work, mb, compression) { };
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
        if (!LoadExperiments.TAU2_VARIANTS.containsKey(v)) {
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
      case "concurrency" -> new StoreExperiments(e).concurrency();
      case "failures" -> new StoreExperiments(e).failures();
      case "load" -> new LoadExperiments(e).load();
      case "retrieval" -> new ReadExperiments(e).retrieval();
      case "ablation" -> new ReadExperiments(e).ablation();
      case "stripe" -> new PipelineExperiments(e).stripe();
      case "chunksize" -> new PipelineExperiments(e).chunksize();
      case "threads" -> new PipelineExperiments(e).threads();
      case "makespan" -> new MakespanExperiment(e).makespan();
      case "sizes" -> new StoreExperiments(e).sizes();
      case "tau2" -> new LoadExperiments(e).tau2();
      default -> {
        System.err.println("unknown experiment " + args[0] + "\n" + USAGE);
        System.exit(2);
      }
    }
  }
}
