package org.cairn.cli.criu;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.cairn.cli.command.StoreCommand;
import org.cairn.cli.command.StoreFlags;
import org.cairn.cli.context.AppCrypto;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.StoreReport;
import org.cairn.client.Grid;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.config.Durations;
import org.cairn.core.manifest.Manifest;
import org.cairn.core.util.UserCache;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn criu launch|dump|restore}: process trees checkpointed by CRIU, each dump one version on the grid. */
@Command(name = "criu", header = "Checkpoint Linux processes with CRIU, each dump kept on the grid.", mixinStandardHelpOptions = true,
    description = {"Dump a Linux process tree with CRIU (no library preloaded into it) and keep each dump on the grid as one "
        + "version of APP/NODE (a directory version: CRIU's image files), committed only when CRIU reports success; restore "
        + "it, detached, on this host or another. CRIU is $CAIRN_CRIU (a path) if set, else 'criu' on PATH; it needs root."},
    subcommands = {CriuCommand.Launch.class, CriuCommand.Dump.class, CriuRestore.class})
public final class CriuCommand {
  @CommandLine.ParentCommand
  Root root;

  /** What launch and dump share: the target, the work directory and how dumps are stored. */
  static final class DumpOptions {
    @CommandLine.Mixin
    Target.App target;

    @CommandLine.Mixin
    Target.Node nodeOption;

    @Option(names = "--work-dir", paramLabel = "DIR",
        description = {"Where CRIU writes a dump before it is stored (removed once stored) and where a failed dump's log is "
            + "kept (default: ~/.cache/cairn/criu/APP/NODE, or under $XDG_CACHE_HOME/cairn; with --part R, its part-R)."})
    Path workDir;

    @Option(names = "--timeout", defaultValue = "30m", paramLabel = "DURATION",
        description = "How long one CRIU dump may take, at least 1s; a dump that takes longer is ended and stores nothing "
            + "(default: ${DEFAULT-VALUE}).")
    String timeout;

    @CommandLine.Mixin
    StoreFlags store;

    @CommandLine.Mixin
    StoreFlags.Cutting cutting;

    @CommandLine.Mixin
    SetFlags sets;

    /** --work-dir, else the default: with --part R, a directory of the part's own (part-R), so hosts sharing a home do not meet. */
    Path workDir(Root root) {
      Path p = root.session().path(workDir);
      if (p != null) {
        return p;
      }
      Path node = UserCache.dir().resolve("criu").resolve(target.app).resolve(nodeOption.node);
      return sets.part == null ? node : node.resolve("part-" + sets.part);
    }

    /** How each dump is stored: the next step of app/node, a directory version. */
    StoreOptions storeOptions(Root root, CommandLine cl) throws IOException {
      UnaryOperator<StoreOptions> shape = StoreFlags.all(cl, store.shape(cl), cutting.shape(cl));
      return shape.apply(StoreOptions.defaults(target.app, nodeOption.node, ImageSource.DIRECTORY, StoreCommand.clientId(),
          AppCrypto.of(root, cl, target.app, store.encryption(cl))));
    }

    /** {@code --timeout}: at least a second, else a usage error. */
    Duration timeout(CommandLine cl) {
      return duration(cl, "--timeout", timeout);
    }

    CriuDumper dumper(Root root, CommandLine cl, Grid grid, boolean shellJob, StoreOptions options) throws IOException {
      Criu criu = new Criu(Criu.find(System.getenv()), shellJob, timeout(cl));
      return new CriuDumper(criu, workDir(root), CriuDumper.into(grid, options));
    }
  }

  /** {@code --interval} as a duration of at least one second. */
  static Duration interval(CommandLine cl, String spec) {
    return duration(cl, "--interval", spec);
  }

  /** The duration option {@code name} says, at least one second; else a usage error naming it. */
  public static Duration duration(CommandLine cl, String name, String spec) {
    try {
      Duration d = Durations.parse(spec);
      if (d.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException("must be at least 1s, was '" + spec + "'");
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, name + ": " + e.getMessage());
    }
  }

  @Command(name = "launch", mixinStandardHelpOptions = true, resourceBundle = "org.cairn.cli.criu.CriuCommand$Help",
      description = {"Start PROGRAM in a session of its own (standard input /dev/null, output appended to --output) and dump "
          + "it with CRIU every --interval, leaving it running; each dump is stored as the next version of APP/NODE. "
          + "SIGUSR1 to this command dumps at once; SIGTERM makes a last dump that ends PROGRAM (a scheduler's preemption). "
          + "Exits with PROGRAM's status (143 after SIGTERM).",
          "With --part R --parts P (a job whose trees run on P hosts, one launch on each): the dumps run on the wall-clock "
          + "multiples of --interval, the same instants on every host, and each is this host's part of that round's set, named "
          + "by the round's UTC time (20261202T203000Z; SIGUSR1's and SIGTERM's by the nearest minute: 20261202T2031Z-usr1), "
          + "after --set EPOCH and a '.' if given. A round becomes a version once every host's part is committed."})
  static final class Launch implements Callable<Integer> {
    @CommandLine.ParentCommand
    CriuCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DumpOptions dump;

    @Option(names = "--interval", defaultValue = "10m", paramLabel = "DURATION",
        description = "Time between dumps, at least 1s (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--output", paramLabel = "FILE",
        description = "The file PROGRAM's standard output and error are appended to (default: output.log in the work directory).")
    Path output;

    @CommandLine.Parameters(arity = "1..*", paramLabel = "PROGRAM", description = "The program and its arguments (after --).")
    List<String> program;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      Duration every = interval(cl, interval);
      dump.timeout(cl); // a usage error before anything starts
      SetFlags.HostPart part = dump.sets.hostPart(cl, true);
      Path out = output != null ? parent.root.session().path(output) : dump.workDir(parent.root).resolve("output.log");
      java.nio.file.Files.createDirectories(out.toAbsolutePath().getParent());
      try (Grid grid = GridAccess.open(parent.root, cl)) {
        CriuLauncher launcher = new CriuLauncher(dump.dumper(parent.root, cl, grid, false, dump.storeOptions(parent.root, cl)),
            cl.getErr(), part, java.time.Clock.systemUTC());
        return launcher.run(program, out, every);
      }
    }
  }

  @Command(name = "dump", mixinStandardHelpOptions = true, resourceBundle = "org.cairn.cli.criu.CriuCommand$Help",
      description = {"Dump the running process tree rooted at PID with CRIU and store it as the next version of APP/NODE; "
          + "the tree goes on running unless --stop. When CRIU reports a failure nothing is stored and this exits 1.",
          "With --part R --parts P (a job whose trees run on P hosts; run this on each): the dump is stored as part R of set "
          + "--set EPOCH (default: the UTC minute, rounded to the nearest, with '-dump'), which becomes a version once every "
          + "host's part is committed."})
  static final class Dump implements Callable<Integer> {
    @CommandLine.ParentCommand
    CriuCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DumpOptions dump;

    @Option(names = "--stop", description = "End the tree once it is dumped (CRIU's default), as before a migration.")
    boolean stop;

    @Option(names = "--shell-job", description = "The tree shares a terminal or session with its shell (CRIU's --shell-job); "
        + "restore it with --shell-job too.")
    boolean shellJob;

    @Option(names = "--json", description = "Print the stored version (or set part) as JSON, as 'cairn store --json' does.")
    boolean json;

    @CommandLine.Parameters(index = "0", paramLabel = "PID", description = "The root of the process tree to dump.")
    long pid;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      if (pid <= 0) {
        throw new CommandLine.ParameterException(cl, "PID must be a positive process id, was " + pid);
      }
      dump.timeout(cl);
      Manifest.SetPart set = set(dump.sets.hostPart(cl, false), java.time.Clock.systemUTC());
      try (Grid grid = GridAccess.open(parent.root, cl)) {
        StoreOptions options = dump.storeOptions(parent.root, cl);
        org.cairn.client.store.StoreOutcome res = dump.dumper(parent.root, cl, grid, shellJob, options).dumpAndStore(pid, !stop, set);
        StoreReport.print(cl.getOut(), json, res, options.writeMode(), set == null ? null : set.part());
        return 0;
      }
    }

    /** The set a dump is a part of: --set as given, else named by the minute it is asked in ({@link SetRounds}); null outside one. */
    static Manifest.SetPart set(SetFlags.HostPart part, java.time.Clock clock) {
      if (part == null) {
        return null;
      }
      return part.given() != null ? part.of(part.given()) : part.of(SetRounds.onDemand(clock.instant(), "dump"));
    }
  }

  /** How launch and dump word the store flags they share with {@code cairn store} ({@link StoreFlags}). */
  public static final class Help extends java.util.ListResourceBundle {
    @Override
    protected Object[][] getContents() {
      return new Object[][] {
          {StoreFlags.REDUNDANCY_KEY, "code:M+K, cauchy:M+K or replicate:R (default: ${DEFAULT-VALUE})."},
          {StoreFlags.ENCRYPTION_KEY, "aes-gcm (default), aes-siv or none, as for 'cairn store'."},
          {StoreFlags.WRITE_KEY, "pessimistic (default), optimistic or soft, as for 'cairn store'."},
          {StoreFlags.CHUNKING_KEY, "How images are cut, as for 'cairn store' (default: ${DEFAULT-VALUE})."}};
    }
  }
}
