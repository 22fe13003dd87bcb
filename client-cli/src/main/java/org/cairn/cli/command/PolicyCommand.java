package org.cairn.cli.command;

import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code cairn policy get|set}: an app's folder policy (stdchk): keep-all, replace, purge-after=DURATION. */
@Command(name = "policy", header = "Show or set an app's folder policy: keep-all, replace or purge-after.", mixinStandardHelpOptions = true,
    description = {"Show or set an app's folder policy: keep-all (default), replace (a committed version deletes the node's "
        + "older ones), or purge-after=DURATION (versions older than that are deleted; a node's latest is always kept)."})
public final class PolicyCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

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

  @Option(names = "--dry-run", description = {"With set: list the versions the policy would delete now (each node's latest is "
      + "always kept) and change nothing."})
  boolean dryRun;

  /** What a dry run prints with {@code --json}: the folder's versions the policy would delete. */
  public record DryRun(String folder, boolean dryRun, java.util.List<Doomed> wouldDelete) {}

  /** One version a dry run would delete. */
  public record Doomed(String app, String node, long step, long committedAt, long size) {}

  @Override
  public Integer call() throws Exception {
    String app = target.app;
    try (org.cairn.client.Grid grid = GridAccess.open(root, spec.commandLine())) {
      org.cairn.core.api.catalog.FolderPolicy r;
      if (action.equals("get")) {
        r = grid.policy(app);
      } else if (action.equals("set")) {
        if (folder == null) {
          throw new CommandLine.ParameterException(spec.commandLine(), "policy set needs --folder keep-all|replace|purge-after=DURATION");
        }
        if (dryRun) {
          return dryRun(grid, app);
        }
        r = grid.setPolicy(app, folder);
      } else {
        throw new CommandLine.ParameterException(spec.commandLine(), "use 'policy get' or 'policy set', not '" + action + "'");
      }
      spec.commandLine().getOut().println(json ? Json.MAPPER.writeValueAsString(r) : r.app() + ": " + r.folder());
    }
    return 0;
  }

  /** What {@code --folder} would delete now: every version but each node's latest (replace), or those older than the duration. */
  private int dryRun(org.cairn.client.Grid grid, String app) throws Exception {
    String f = folder.trim();
    java.time.Duration age;
    if (f.equals("keep-all")) {
      age = null;
    } else if (f.equals("replace")) {
      age = java.time.Duration.ZERO;
    } else if (f.startsWith("purge-after=")) {
      try {
        age = org.cairn.core.config.Durations.parse(f.substring("purge-after=".length()));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--folder: " + e.getMessage());
      }
    } else {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--folder must be keep-all, replace or purge-after=DURATION, was '" + folder + "'");
    }
    long now = System.currentTimeMillis();
    java.util.List<org.cairn.core.api.catalog.VersionRow> doomed = new java.util.ArrayList<>();
    for (org.cairn.core.api.status.AppSummary a : grid.apps()) {
      if (!a.app().equals(app) || age == null) {
        continue;
      }
      for (String node : a.nodes().keySet()) {
        java.util.List<org.cairn.core.api.catalog.VersionRow> vs = grid.versions(app, node);
        long latest = vs.stream().mapToLong(org.cairn.core.api.catalog.VersionRow::step).max().orElse(0);
        for (org.cairn.core.api.catalog.VersionRow v : vs) {
          if (v.step() != latest && now - v.committedAt() > age.toMillis()) {
            doomed.add(v);
          }
        }
      }
    }
    java.io.PrintWriter out = spec.commandLine().getOut();
    if (json) {
      java.util.List<Doomed> rows = new java.util.ArrayList<>();
      for (org.cairn.core.api.catalog.VersionRow v : doomed) {
        rows.add(new Doomed(v.app(), v.node(), v.step(), v.committedAt(), v.size()));
      }
      out.println(Json.MAPPER.writeValueAsString(new DryRun(f, true, rows)));
    } else {
      for (org.cairn.core.api.catalog.VersionRow v : doomed) {
        out.println("would delete " + v.app() + "." + v.node() + "." + v.step() + " (committed "
            + java.time.Instant.ofEpochMilli(v.committedAt()).toString().substring(0, 19).replace('T', ' ') + ", "
            + org.cairn.core.config.ByteSize.format(v.size()) + ")");
      }
      out.println(doomed.size() + " version" + (doomed.size() == 1 ? "" : "s") + " of " + app + " would be deleted under " + f
          + " (dry run: nothing changed)");
    }
    out.flush();
    return 0;
  }
}
