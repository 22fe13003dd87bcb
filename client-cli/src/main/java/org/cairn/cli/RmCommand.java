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

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @Option(names = "--step", required = true, paramLabel = "STEP", description = "Step of the version to delete.")
  long step;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (org.cairn.client.Grid grid = GridAccess.open(root, spec.commandLine())) {
      grid.delete(target.app, nodeOption.node, step);
      if (json) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("app", target.app);
        m.put("node", nodeOption.node);
        m.put("step", step);
        m.put("deleted", true);
        spec.commandLine().getOut().println(Json.MAPPER.writeValueAsString(m));
      } else {
        spec.commandLine().getOut().println("deleted " + target.app + "." + nodeOption.node + "." + step);
      }
    }
    return 0;
  }
}
