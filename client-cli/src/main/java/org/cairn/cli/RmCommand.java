package org.cairn.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn rm}: deletes a version; chunks no other version uses become garbage on the peers. */
@Command(name = "rm", mixinStandardHelpOptions = true, description = "Delete a version.")
final class RmCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  CairnCli root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--app", required = true)
  String app;

  @Option(names = "--node", required = true)
  String node;

  @Option(names = "--step", required = true)
  long step;

  @Override
  public Integer call() throws Exception {
    try (GridAccess grid = GridAccess.open(root, spec.commandLine())) {
      grid.tracker.delete("/api/v1/versions", Map.of("app", app, "node", node, "step", Long.toString(step)));
      spec.commandLine().getOut().println("deleted " + app + "." + node + "." + step);
    }
    return 0;
  }
}
