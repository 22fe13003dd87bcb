package org.cairn.it.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Store time against concurrent clients, donors killed mid-store, and image size (FALCON Fig. 6, 7). */
final class StoreExperiments extends Lab {
  StoreExperiments(Lab settings) {
    super(settings);
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
}
