package org.cairn.cli.command;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.core.api.catalog.VersionRow;
import org.cairn.core.config.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn versions}: the committed versions of app/node. */
@Command(name = "versions", mixinStandardHelpOptions = true, description = "List the committed versions of an app's node.")
public final class VersionsCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @Option(names = "--json", description = "A JSON array with step, size, storedBytes, createdAt, ... per version.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    String app = target.app;
    String node = nodeOption.node;
    try (org.cairn.client.Grid grid = GridAccess.open(root, spec.commandLine())) {
      List<VersionRow> versions = grid.versions(app, node);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(versions));
      } else if (versions.isEmpty()) {
        out.println("no versions of " + app + "." + node);
        pendingSets(grid, app, node, out);
      } else {
        out.printf(Locale.ROOT, "%6s  %-24s  %10s  %10s  %7s  %-12s  %s%n", "step", "created", "size", "stored", "chunks", "redundancy",
            "status");
        for (VersionRow v : versions) {
          String coding = v.weakest() == null ? v.redundancy() : v.redundancy() + " (weakest " + v.weakest() + ")";
          out.printf(Locale.ROOT, "%6d  %-24s  %10s  %10s  %7d  %-12s  %s%n", v.step(),
              Instant.ofEpochMilli(v.createdAt()).toString().substring(0, 19).replace('T', ' '),
              ByteSize.format(v.size()), ByteSize.format(v.storedBytes()), v.chunks(), coding,
              v.parts() == null ? v.status() : v.status() + " (set " + v.set() + ", " + v.parts() + " parts)");
        }
        pendingSets(grid, app, node, out);
      }
      out.flush();
    }
    return 0;
  }

  /** Checkpoint sets still waiting for parts: no version yet, said after the table (not in --json, which lists versions). */
  private static void pendingSets(org.cairn.client.Grid grid, String app, String node, PrintWriter out) throws java.io.IOException {
    for (org.cairn.core.api.catalog.SetProgress p : grid.pendingSets(app, node)) {
      out.printf(Locale.ROOT, "set %s: %d of %d parts committed since %s (no version until all are; dropped after the tracker's"
          + " --set-timeout)%n", p.set(), p.partsCommitted(), p.parts(),
          Instant.ofEpochMilli(p.firstCommittedAt()).toString().substring(0, 19).replace('T', ' '));
    }
  }
}
