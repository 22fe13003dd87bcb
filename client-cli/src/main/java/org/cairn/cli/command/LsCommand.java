package org.cairn.cli.command;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn ls}: apps and their nodes. */
@Command(name = "ls", mixinStandardHelpOptions = true, description = "List apps and their nodes (with version counts).")
public final class LsCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (org.cairn.client.Grid grid = GridAccess.open(root, spec.commandLine())) {
      java.util.List<org.cairn.core.api.status.AppSummary> apps = grid.apps();
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(apps));
      } else {
        for (org.cairn.core.api.status.AppSummary a : apps) {
          out.println(a.app());
          for (Map.Entry<String, Integer> n : new java.util.TreeMap<>(a.nodes()).entrySet()) {
            out.println("  " + n.getKey() + "  (" + n.getValue() + (n.getValue() == 1 ? " version)" : " versions)"));
          }
        }
      }
      out.flush();
    }
    return 0;
  }
}
