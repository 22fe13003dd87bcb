package org.cairn.it.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Fetch time with slow holders, any-m against first-m (FALCON Fig. 9), and recovery without each optimisation (Fig. 10). */
final class ReadExperiments extends Lab {
  ReadExperiments(Lab settings) {
    super(settings);
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
}
