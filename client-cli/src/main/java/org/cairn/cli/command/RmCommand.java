package org.cairn.cli.command;

import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn rm}: deletes a version; chunks no other version uses become garbage on the peers. */
@Command(name = "rm", mixinStandardHelpOptions = true, description = "Delete a version.")
public final class RmCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

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

  /** What {@code rm --json} prints. */
  record Deleted(String app, String node, long step, boolean deleted) {}

  @Override
  public Integer call() throws Exception {
    try (org.cairn.client.Grid grid = GridAccess.open(root, spec.commandLine())) {
      grid.delete(target.app, nodeOption.node, step);
      if (json) {
        spec.commandLine().getOut().println(Json.MAPPER.writeValueAsString(new Deleted(target.app, nodeOption.node, step, true)));
      } else {
        spec.commandLine().getOut().println("deleted " + target.app + "." + nodeOption.node + "." + step);
      }
    }
    return 0;
  }
}
