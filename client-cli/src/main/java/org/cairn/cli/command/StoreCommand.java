package org.cairn.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.cli.context.AppCrypto;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.QueuedStore;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Session;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.cli.output.Progress;
import org.cairn.cli.output.StoreReport;
import org.cairn.client.advise.CheckpointCosts;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.client.store.StoreSession;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code cairn store}: stores a checkpoint image as a new version of app/node. */
@Command(name = "store", mixinStandardHelpOptions = true,
    description = {"Store a checkpoint: a file, '-' for standard input, or --dir DIR for a directory checkpoint.",
        "Only chunks the grid does not hold for the app are sent. Exit 0 once the version is committed."})
public final class StoreCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "Checkpoint file, or '-' for standard input.")
  String file;

  @Option(names = "--dir", paramLabel = "DIR", description = "Store a directory checkpoint (restored as the same tree).")
  Path dir;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @CommandLine.Mixin
  StoreFlags flags;

  @CommandLine.Mixin
  StoreFlags.Compression compression;

  @CommandLine.Mixin
  StoreFlags.Cutting cutting;

  @CommandLine.Mixin
  StoreFlags.Tuning tuning;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = "--async", description = {"Return once the agent holds a private copy of FILE; it stores it in the background "
      + "('cairn wait --app A --node N' blocks until committed). Without an agent the store runs now, as without --async."})
  boolean async;

  /** The options the flags give for app/node (sealed by plaintext until the app key is known), checked. */
  StoreOptions options(CommandLine cl, String kind) {
    Encryption sealing = flags.encryption(cl);
    return StoreFlags.all(cl, flags.shape(cl), compression.shape(cl), cutting.shape(cl), tuning.shape(cl))
        .apply(StoreOptions.defaults(target.app, nodeOption.node, kind, clientId(root.session()), ChunkCrypto.PLAIN));
  }

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    StoreOptions checked = options(cl, ImageSource.FILE);
    Encryption sealing = flags.encryption(cl);
    file = root.session().path(file);
    dir = root.session().path(dir);
    if ((file == null) == (dir == null)) {
      throw new CommandLine.ParameterException(cl, "give exactly one of FILE, '-' or --dir DIR");
    }
    long sizeHint = 0;
    String kind = ImageSource.FILE;
    if (dir != null) {
      kind = ImageSource.DIRECTORY;
      if (!Files.isDirectory(dir)) {
        throw new CommandLine.ParameterException(cl, "--dir " + dir + ": " + (Files.exists(dir) ? "not a directory (store a file without --dir)"
            : "no such directory"));
      }
    } else if (!file.equals("-")) {
      Path p = Path.of(file);
      if (Files.isDirectory(p)) {
        throw new CommandLine.ParameterException(cl, file + " is a directory: store it with --dir " + file);
      }
      if (!Files.exists(p)) {
        throw new java.io.IOException(file + ": no such file");
      }
      if (!Files.isReadable(p)) {
        throw new java.io.IOException(file + ": permission denied");
      }
      sizeHint = Files.size(p);
    }
    StoreOptions options = checked.forVersion(checked.node(), checked.step(), kind);
    if (async && root.session().background() != null) {
      if (dir != null || file.equals("-")) {
        throw new CommandLine.ParameterException(cl, "--async stores a FILE (not standard input or --dir)");
      }
      return queue(cl, sealing, options);
    }
    if (async) {
      cl.getErr().println("cairn store: --async needs a running agent (CAIRN_AGENT_SOCKET); storing now");
      cl.getErr().flush();
    }
    // the grid's address and token are checked before anything is written here (a new app key)
    try (org.cairn.client.Grid grid = GridAccess.open(root, cl)) {
      return store(cl, grid, options.withCrypto(AppCrypto.of(root, cl, target.app, sealing)), sizeHint);
    }
  }

  /** What {@code store --async --json} prints: the background store's id and how long the private copy took. */
  record Queued(String app, String node, String queued, double seconds) {}

  /** Hands the image to the agent's background stores (the app key is made now, so its warning reaches the user). */
  private int queue(CommandLine cl, Encryption sealing, StoreOptions options) throws IOException {
    if (sealing.encrypted()) {
      AppCrypto.key(root, cl, target.app); // made now, so its warning reaches the user; the agent's store seals with it
    }
    GridPool.Key grid = GridAccess.key(root, cl);
    long t0 = System.nanoTime();
    QueuedStore store = QueuedStore.of(Path.of(file), root.keys().dir().toAbsolutePath(), sealing, options);
    String id = root.session().background().submit(store, grid);
    double seconds = (System.nanoTime() - t0) / 1e9;
    notePause(options, seconds, "async");
    PrintWriter out = cl.getOut();
    if (json) {
      out.println(Json.MAPPER.writeValueAsString(new Queued(target.app, nodeOption.node, id, Math.round(seconds * 1000) / 1000.0)));
    } else {
      out.printf(Locale.ROOT, "queued %s.%s (copied in %.2f s); 'cairn wait --app %s --node %s' returns once it is committed%n",
          target.app, nodeOption.node, seconds, target.app, nodeOption.node);
    }
    out.flush();
    return 0;
  }

  private int store(CommandLine cl, org.cairn.client.Grid grid, StoreOptions options, long sizeHint) throws Exception {
    try (org.apache.commons.io.input.CountingInputStream in = new org.apache.commons.io.input.CountingInputStream(
            dir != null ? ImageSource.open(dir) : ImageSource.open(file));
        AutoCloseable progress = Progress.start(root.session().stderr(), root.session().terminal(), root.quiet() || json, "storing", in::getByteCount, sizeHint)) {
      StoreOutcome res = grid.store(in, sizeHint, options);
      progress.close();
      notePause(options, res.seconds(), "store");
      StoreReport.print(cl.getOut(), json, res, options.writeMode(), tuning.part());
    }
    return 0;
  }

  /** Notes what this checkpoint cost the job for 'cairn advise' ({@link CheckpointCosts}); a ledger it cannot write costs only advice. */
  private static void notePause(StoreOptions o, double seconds, String source) {
    try {
      CheckpointCosts.local().record(o.app(), o.node(), Duration.ofNanos((long) (seconds * 1e9)), source);
    } catch (java.io.IOException | RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(StoreCommand.class).debug("checkpoint cost not noted: {}", e.toString());
    }
  }

  /**
   * This machine as the tracker knows compute hosts: $CAIRN_CLIENT_ID if set (several clients on one
   * host name, e.g. in network namespaces), else its host name, made a valid id.
   */
  public static String clientId() {
    return clientId(Session.local());
  }

  /** As {@link #clientId()}, with the client's {@code CAIRN_CLIENT_ID} when an agent runs the command. */
  public static String clientId(Session session) {
    String env = session.env("CAIRN_CLIENT_ID");
    return (env != null && !env.isBlank() ? env : StoreSession.hostName()).replaceAll("[^A-Za-z0-9._-]", "-");
  }
}
