package org.cairn.it.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** stdchk's stripe width and chunk size (Fig. 2-6, Table 3), and the pipeline against worker threads (FALCON Fig. 11-12). */
final class PipelineExperiments extends Lab {
  PipelineExperiments(Lab settings) {
    super(settings);
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
}
