package org.cairn.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.cairn.core.config.ByteSize;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn versions}: the committed versions of app/node. */
@Command(name = "versions", mixinStandardHelpOptions = true, description = "List the committed versions of an app's node.")
final class VersionsCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  CairnCli root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--app", required = true)
  String app;

  @Option(names = "--node", required = true)
  String node;

  @Option(names = "--json", description = "A JSON array with step, size, storedBytes, createdAt, ... per version.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (GridAccess grid = GridAccess.open(root, spec.commandLine())) {
      JsonNode versions = grid.tracker.get("/api/v1/versions", Map.of("app", app, "node", node));
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(versions));
      } else if (versions.isEmpty()) {
        out.println("no versions of " + app + "." + node);
      } else {
        out.printf(Locale.ROOT, "%6s  %-24s  %10s  %10s  %7s  %-12s  %s%n", "step", "created", "size", "stored", "chunks", "redundancy",
            "status");
        for (JsonNode v : versions) {
          out.printf(Locale.ROOT, "%6d  %-24s  %10s  %10s  %7d  %-12s  %s%n", v.path("step").asLong(),
              Instant.ofEpochMilli(v.path("createdAt").asLong()).toString().substring(0, 19).replace('T', ' '),
              ByteSize.format(v.path("size").asLong()), ByteSize.format(v.path("storedBytes").asLong()),
              v.path("chunks").asLong(), v.path("redundancy").asText(), v.path("status").asText());
        }
      }
      out.flush();
    }
    return 0;
  }
}
