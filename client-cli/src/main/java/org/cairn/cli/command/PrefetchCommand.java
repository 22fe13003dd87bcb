package org.cairn.cli.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Session;
import org.cairn.cli.context.Target;
import org.cairn.client.Grid;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.chunk.ImageSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn prefetch}: pulls a version to local disk ahead of a restart. */
@Command(name = "prefetch", header = "Fetch a version into a directory ahead of a restart.", mixinStandardHelpOptions = true,
    description = {"Fetch the latest version of app/node (or --step) into DIR as APP.NODE.STEP (a file, or a directory for a "
        + "directory checkpoint), so a restart reads it from local disk. Run through an agent it uses the agent's warm "
        + "connections. Exit 0 once the copy is complete (written under a temporary name, then renamed)."})
public final class PrefetchCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @CommandLine.Mixin
  Target.Step stepOption;

  @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Directory to fetch into (made if missing).")
  Path dir;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    Path into = root.session().path(dir);
    LocatedVersion v;
    try (Grid grid = GridAccess.open(root, cl)) {
      v = grid.locate(target.app, nodeOption.node, stepOption.step);
    }
    Files.createDirectories(into);
    long step = v.manifest().step();
    Path dest = into.resolve(target.app + "." + nodeOption.node + "." + step).toAbsolutePath();
    boolean tree = ImageSource.DIRECTORY.equals(v.manifest().kind());
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("fetch", "--app", target.app, "--node", nodeOption.node,
        "--step", Long.toString(step), tree ? "--dir" : "-o", dest.toString()));
    if (json) {
      args.add("--json");
    }
    if (root.keyDir() != null) {
      args.addAll(0, java.util.List.of("--key-dir", root.session().path(root.keyDir()).toString()));
    }
    if (root.tracker() != null) {
      args.addAll(0, java.util.List.of("--tracker", root.tracker()));
    }
    if (root.tokenFile() != null) {
      args.addAll(0, java.util.List.of("--token-file", root.session().path(root.tokenFile()).toString()));
    }
    Session s = root.session();
    return root.runCommand(new Session(null, s.stdout(), s.stderr(), s.terminal(), s.env(), s.grids(), s.background()), args.toArray(String[]::new));
  }
}
