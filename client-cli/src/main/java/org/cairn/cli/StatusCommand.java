package org.cairn.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.cairn.core.config.ByteSize;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn status}: a summary of the grid: peers by state, capacity, apps and versions. */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Summarise the grid: peers by state, capacity, checkpoints.")
final class StatusCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  CairnCli root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (GridAccess grid = GridAccess.open(root, spec.commandLine())) {
      JsonNode peers = grid.tracker.get("/api/v1/peers", Map.of());
      JsonNode apps = grid.tracker.get("/api/v1/apps", Map.of());
      Map<String, Integer> byState = new TreeMap<>();
      long quota = 0;
      long used = 0;
      long free = 0;
      for (JsonNode p : peers) {
        byState.merge(p.path("state").asText(), 1, Integer::sum);
        if (!"DOWN".equals(p.path("state").asText())) {
          quota += p.path("quotaBytes").asLong();
          used += p.path("usedBytes").asLong();
          free += p.path("freeBytes").asLong();
        }
      }
      int versions = 0;
      int nodes = 0;
      for (JsonNode a : apps) {
        for (Iterator<JsonNode> it = a.path("nodes").elements(); it.hasNext();) {
          versions += it.next().asInt();
          nodes++;
        }
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tracker", grid.tracker.base().toString());
        m.put("peers", peers.size());
        m.put("peersByState", byState);
        m.put("donatedBytes", quota);
        m.put("usedBytes", used);
        m.put("freeBytes", free);
        m.put("apps", apps.size());
        m.put("nodes", nodes);
        m.put("versions", versions);
        out.println(Json.MAPPER.writeValueAsString(m));
      } else {
        out.println("tracker   " + grid.tracker.base());
        out.println("peers     " + peers.size() + " " + byState);
        out.println("capacity  " + ByteSize.format(quota) + " donated by live peers, " + ByteSize.format(used) + " used, "
            + ByteSize.format(free) + " free");
        out.println("stored    " + versions + " versions of " + nodes + " nodes in " + apps.size() + " apps");
      }
      out.flush();
    }
    return 0;
  }
}
