package org.cairn.cli.podman;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.cairn.cli.command.StoreCommand;
import org.cairn.cli.command.StoreFlags;
import org.cairn.cli.context.AppCrypto;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.criu.Criu;
import org.cairn.cli.criu.CriuCommand;
import org.cairn.cli.output.StoreReport;
import org.cairn.client.Grid;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.util.UserCache;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn podman checkpoint|restore}: Podman containers checkpointed with CRIU, each export one version on the grid. */
@Command(name = "podman", header = "Checkpoint Podman containers, each checkpoint kept on the grid.", mixinStandardHelpOptions = true,
    description = {"Checkpoint a running Podman container (podman container checkpoint --export) and keep the export on the "
        + "grid as one version of APP/NODE (a file version: the tar Podman writes), committed only when Podman exits 0; restore "
        + "it on this host or another (podman container restore --import). Podman is $CAIRN_PODMAN (a path) if set, else "
        + "'podman' on PATH; the CRIU it runs is $CAIRN_CRIU if set, else 'criu' on PATH, put first on Podman's PATH. Needs "
        + "root. Exit codes: 0 success, 1 Podman or the grid failed (nothing stored), 2 usage error."},
    subcommands = {PodmanCommand.Checkpoint.class, PodmanRestore.class})
public final class PodmanCommand {
  @CommandLine.ParentCommand
  Root root;

  /** The Podman to run with the CRIU to put first on its PATH, each run limited to {@code timeout}. */
  static Podman podman(CommandLine cl, String timeout) throws IOException {
    java.time.Duration limit = CriuCommand.duration(cl, "--timeout", timeout);
    return new Podman(Podman.find(System.getenv()), Criu.find(System.getenv()), limit);
  }

  /** {@code --work-dir}, else ~/.cache/cairn/podman/APP/NODE: where export tars are written before they are stored. */
  static Path workDir(Root root, Path option, String app, String node) {
    Path p = root.session().path(option);
    return p != null ? p : UserCache.dir().resolve("podman").resolve(app).resolve(node);
  }

  @Command(name = "checkpoint", mixinStandardHelpOptions = true, resourceBundle = "org.cairn.cli.criu.CriuCommand$Help",
      description = {"Checkpoint CONTAINER with Podman (podman container checkpoint --export --compress=none) and store the "
          + "export as the next version of APP/NODE; the container stops unless --leave-running. When Podman fails (exits "
          + "non-zero, or outlasts --timeout) nothing is stored and this exits 1 with Podman's last error lines. The export "
          + "is written 0600 into a private directory under --work-dir and removed once stored. Print the stored version "
          + "as 'cairn store' does."})
  static final class Checkpoint implements Callable<Integer> {
    @CommandLine.ParentCommand
    PodmanCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    Target.App target;

    @CommandLine.Mixin
    Target.Node nodeOption;

    @Option(names = {"-R", "--leave-running"}, description = "Leave the container running once checkpointed (Podman's --leave-running).")
    boolean leaveRunning;

    @Option(names = "--work-dir", paramLabel = "DIR",
        description = "Where the export is written before it is stored (default: ~/.cache/cairn/podman/APP/NODE).")
    Path workDir;

    @Option(names = "--timeout", defaultValue = "30m", paramLabel = "DURATION",
        description = "How long Podman's checkpoint may take, at least 1s; after that it is ended and nothing is stored "
            + "(default: ${DEFAULT-VALUE}).")
    String timeout;

    @CommandLine.Mixin
    StoreFlags store;

    @CommandLine.Mixin
    StoreFlags.Cutting cutting;

    @Option(names = "--json", description = "Print the stored version as JSON, as 'cairn store --json' does.")
    boolean json;

    @CommandLine.Parameters(index = "0", paramLabel = "CONTAINER", description = "The running container's name or id.")
    String container;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      if (container.isBlank()) {
        throw new CommandLine.ParameterException(cl, "CONTAINER must name a container");
      }
      Podman podman = podman(cl, timeout);
      try (Grid grid = GridAccess.open(parent.root, cl)) {
        StoreOptions options = storeOptions(cl);
        PodmanCheckpointer checkpointer = new PodmanCheckpointer(podman,
            workDir(parent.root, workDir, target.app, nodeOption.node), PodmanCheckpointer.into(grid, options));
        StoreReport.print(cl.getOut(), json, checkpointer.checkpointAndStore(container, leaveRunning), options.writeMode(), null);
        return 0;
      }
    }

    /** How the export is stored: the next step of app/node, a file version. */
    private StoreOptions storeOptions(CommandLine cl) throws IOException {
      UnaryOperator<StoreOptions> shape = StoreFlags.all(cl, store.shape(cl), cutting.shape(cl));
      return shape.apply(StoreOptions.defaults(target.app, nodeOption.node, ImageSource.FILE, StoreCommand.clientId(),
          AppCrypto.of(parent.root, cl, target.app, store.encryption(cl))));
    }
  }
}
