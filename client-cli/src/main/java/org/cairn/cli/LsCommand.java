package org.cairn.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn ls}: apps and their nodes. */
@Command(name = "ls", mixinStandardHelpOptions = true, description = "List apps and their nodes (with version counts).")
final class LsCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  CairnCli root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (GridAccess grid = GridAccess.open(root, spec.commandLine())) {
      JsonNode apps = grid.tracker.get("/api/v1/apps", Map.of());
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(apps));
      } else {
        for (JsonNode a : apps) {
          out.println(a.path("app").asText());
          for (Iterator<Map.Entry<String, JsonNode>> it = a.path("nodes").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> n = it.next();
            out.println("  " + n.getKey() + "  (" + n.getValue().asInt() + " versions)");
          }
        }
      }
      out.flush();
    }
    return 0;
  }
}
