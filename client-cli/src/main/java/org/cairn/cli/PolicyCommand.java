package org.cairn.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cairn policy get|set}: an app's folder policy (stdchk): keep-all, replace, purge-after=DURATION. */
@Command(name = "policy", header = "Show or set an app's folder policy: keep-all, replace or purge-after.", mixinStandardHelpOptions = true,
    description = {"Show or set an app's folder policy: keep-all (default), replace (a committed version deletes the node's",
        "older ones), or purge-after=DURATION (versions older than that are deleted; a node's latest is always kept)."})
final class PolicyCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  CairnCli root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "get|set")
  String action;

  @CommandLine.Mixin
  Target.App target;

  @Option(names = "--folder", description = "keep-all, replace or purge-after=DURATION (with set).")
  String folder;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    String app = target.app;
    try (org.cairn.client.Grid grid = GridAccess.open(root, spec.commandLine())) {
      org.cairn.core.api.FolderPolicy r;
      if (action.equals("get")) {
        r = grid.policy(app);
      } else if (action.equals("set")) {
        if (folder == null) {
          throw new CommandLine.ParameterException(spec.commandLine(), "policy set needs --folder keep-all|replace|purge-after=DURATION");
        }
        r = grid.setPolicy(app, folder);
      } else {
        throw new CommandLine.ParameterException(spec.commandLine(), "use 'policy get' or 'policy set', not '" + action + "'");
      }
      spec.commandLine().getOut().println(json ? Json.MAPPER.writeValueAsString(r) : r.app() + ": " + r.folder());
    }
    return 0;
  }
}
