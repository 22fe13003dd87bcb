package org.cairn.cli.command;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Session;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.client.Grid;
import org.cairn.core.api.catalog.VersionRow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn wait}: blocks until the agent's background stores of app/node are committed. */
@Command(name = "wait", header = "Wait until the agent's background stores of app/node are committed.", mixinStandardHelpOptions = true,
    description = {"Wait until every 'store --async' of app/node handed to the agent so far is committed (with the "
        + "durability its --write mode promises), then print the latest version. With --step, also check that step is committed.",
        "Exit codes: 0 committed, 1 a background store failed or the step is not there, 2 usage error."})
public final class WaitCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @Option(names = "--step", defaultValue = "0", paramLabel = "STEP", description = "A step that must be committed (default: any).")
  long step;

  @Option(names = "--json", description = "Print the outcome as JSON.")
  boolean json;

  /**
   * What {@code wait --json} prints: background stores waited for and how many failed, the latest committed step
   * (null: none) and its status, and whether {@code --step} (if given) is committed.
   */
  record Waited(String app, String node, int waitedFor, int failed, Long latestStep, String status, boolean stepCommitted) {}

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    String app = target.app;
    String node = nodeOption.node;
    List<Session.Outcome> ended = root.session().background() == null ? List.of() : root.session().background().await(app, node);
    int failed = 0;
    for (Session.Outcome o : ended) {
      if (o.exit() != 0) {
        failed++;
        cl.getErr().print(o.err());
      }
    }
    cl.getErr().flush();
    try (Grid grid = GridAccess.open(root, cl)) {
      List<VersionRow> versions = grid.versions(app, node);
      VersionRow latest = versions.stream().max(java.util.Comparator.comparingLong(VersionRow::step)).orElse(null);
      boolean stepThere = step <= 0 || versions.stream().anyMatch(v -> v.step() == step);
      PrintWriter out = cl.getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(new Waited(app, node, ended.size(), failed,
            latest == null ? null : latest.step(), latest == null ? null : latest.status(), stepThere)));
      } else if (!stepThere) {
        cl.getErr().println("cairn wait: " + app + "." + node + " has no committed step " + step);
      } else if (latest != null) {
        out.println((failed > 0 ? "latest committed " : "committed ") + app + "." + node + "." + latest.step() + " (" + latest.status() + ")"
            + (ended.isEmpty() ? "" : ", after " + ended.size() + " background store" + (ended.size() == 1 ? "" : "s")));
      } else {
        out.println("no versions of " + app + "." + node);
      }
      out.flush();
      cl.getErr().flush();
      return failed > 0 || !stepThere ? 1 : 0;
    }
  }
}
