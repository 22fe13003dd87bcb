package org.cairn.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.AppCrypto;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Session;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.cli.output.Progress;
import org.cairn.cli.output.StoreReport;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.client.store.StoreSession;
import org.cairn.core.chunk.ChunkSize;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
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

  @Option(names = "--step", defaultValue = "0", paramLabel = "STEP",
      description = "Step number to store as (default: the node's next one).")
  long step;

  @Option(names = "--redundancy", defaultValue = Redundancy.DEFAULT_SPEC,
      description = "code:M+K (Reed-Solomon), cauchy:M+K or replicate:R (default: ${DEFAULT-VALUE}).")
  String redundancy;

  @Option(names = "--compression", defaultValue = Compressor.DEFAULT_SPEC,
      description = "none, zstd[:LEVEL], gzip[:LEVEL] or auto (default: ${DEFAULT-VALUE}).")
  String compression;

  @Option(names = "--encryption", defaultValue = "aes-gcm", paramLabel = "MODE",
      description = {"aes-gcm (default) or aes-siv: chunks are encrypted here with the app's key before they leave this "
          + "machine (made on the app's first store; see 'cairn key'); none: store plaintext, readable by every donor."})
  String encryption;

  @Option(names = "--chunk-size", defaultValue = "1MiB", description = "Chunk size, 64KiB..16MiB (default: ${DEFAULT-VALUE}).")
  String chunkSize;

  @Option(names = "--chunking", defaultValue = "aligned", paramLabel = "fixed|aligned|cdc",
      description = {"How the image is cut: aligned (default) restarts chunks at each memory area of a DMTCP image or ELF core "
          + "file (other files: as fixed); fixed: every chunk --chunk-size; cdc: content-defined, --chunk-size/4 .. 2 x --chunk-size."})
  String chunking;

  @Option(names = "--delta", defaultValue = "on", paramLabel = "on|off",
      description = {"on (default): a new chunk of memory (aligned chunks of a DMTCP image or ELF core) is compressed against "
          + "the previous version's chunk at the same address when that is smaller; off: every chunk on its own."})
  String delta;

  @Option(names = "--threads", description = "Worker threads (default: cores).")
  Integer threads;

  @Option(names = "--placement", defaultValue = "falcon",
      description = {"falcon, random[:SEED], dedicated:HOST, or pessimistic (FALCON's ranking after probing every "
          + "donor's bandwidth before the store; a baseline for experiments) (default: ${DEFAULT-VALUE})."})
  String placement;

  @Option(names = "--commit-timeout", defaultValue = "30s", paramLabel = "DURATION",
      description = {"Once every piece is stored, keep trying to commit this long while the tracker is unreachable "
          + "(a restart); then give up, leaving no version (default: ${DEFAULT-VALUE})."})
  String commitTimeout;

  @Option(names = "--host-wait", defaultValue = "60s", paramLabel = "DURATION",
      description = {"When placement lacks hosts only because some are BUSY or FULL now, ask again for up to this long before "
          + "failing; 0 fails at once (default: ${DEFAULT-VALUE})."})
  String hostWait;

  @Option(names = "--probe-after", defaultValue = "10m", paramLabel = "DURATION",
      description = {"Probe placed donors whose bandwidth was never measured or was measured longer ago than this, "
          + "then place again (FALCON §3.2.2); 'never' turns probing off (default: ${DEFAULT-VALUE})."})
  String probeAfter;

  @Option(names = "--write", defaultValue = "pessimistic", paramLabel = "MODE",
      description = {"pessimistic (default): every piece is durable before the store succeeds;",
          "optimistic: success once the m data pieces are durable; the tracker adds the rest in the background "
          + "('cairn versions' shows the status degraded until it has);",
          "soft: success once every piece is in its peer's memory; the peers make them durable in the background "
          + "(within their --soft-sync-interval, 1 s by default; 'cairn versions' shows the status soft until all are; "
          + "a peer that crashes first loses its soft pieces, which repair makes again)."})
  String write;

  @Option(names = "--set", paramLabel = "EPOCH",
      description = {"Store FILE as one part of checkpoint set EPOCH (a checkpoint written on several hosts, e.g. MPI ranks):",
          "the set becomes one version only when all --parts parts are committed; a set left incomplete is dropped "
          + "after the tracker's --set-timeout. Needs --part and --parts."})
  String set;

  @Option(names = "--part", paramLabel = "R", description = "This part's number in the set, 0..P-1.")
  Integer part;

  @Option(names = "--parts", paramLabel = "P", description = "How many parts the set has.")
  Integer parts;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = "--async", description = {"Return once the agent holds a private copy of FILE; it stores it in the background "
      + "('cairn wait --app A --node N' blocks until committed). Without an agent the store runs now, as without --async."})
  boolean async;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    Redundancy r;
    Compressor c;
    int chunk;
    org.cairn.core.chunk.Chunking cutting;
    try {
      r = Redundancy.parse(redundancy);
      c = Compressor.parse(compression);
      chunk = ChunkSize.parse(chunkSize);
      cutting = org.cairn.core.chunk.Chunking.parse(chunking);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    org.cairn.core.crypto.Encryption sealing;
    try {
      sealing = org.cairn.core.crypto.Encryption.parse(encryption);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--encryption: " + e.getMessage());
    }
    if (!write.equals("pessimistic") && !write.equals("optimistic") && !write.equals("soft")) {
      throw new CommandLine.ParameterException(cl, "--write must be pessimistic, optimistic or soft, was '" + write + "'");
    }
    if (!delta.equals("on") && !delta.equals("off")) {
      throw new CommandLine.ParameterException(cl, "--delta must be on or off, was '" + delta + "'");
    }
    java.time.Duration probe;
    try {
      probe = probeAfter.equals("never") ? null : org.cairn.core.config.Durations.parse(probeAfter);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--probe-after: " + e.getMessage());
    }
    java.time.Duration commitWait;
    try {
      commitWait = org.cairn.core.config.Durations.parse(commitTimeout);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--commit-timeout: " + e.getMessage());
    }
    java.time.Duration hostWaitFor;
    try {
      hostWaitFor = org.cairn.core.config.Durations.parse(hostWait);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--host-wait: " + e.getMessage());
    }
    org.cairn.core.manifest.Manifest.SetPart setPart = setPart(cl);
    file = root.session().path(file);
    dir = root.session().path(dir);
    if ((file == null) == (dir == null)) {
      throw new CommandLine.ParameterException(cl, "give exactly one of FILE, '-' or --dir DIR");
    }
    int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (t < 1 || t > 256) {
      throw new CommandLine.ParameterException(cl, "--threads must be between 1 and 256, was " + t);
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
    if (async && root.session().background() != null) {
      if (dir != null || file.equals("-")) {
        throw new CommandLine.ParameterException(cl, "--async stores a FILE (not standard input or --dir)");
      }
      return queue(cl, sealing);
    }
    if (async) {
      cl.getErr().println("cairn store: --async needs a running agent (CAIRN_AGENT_SOCKET); storing now");
      cl.getErr().flush();
    }
    // the grid's address and token are checked before anything is written here (a new app key)
    try (org.cairn.client.Grid grid = GridAccess.open(root, cl)) {
      return store(cl, grid, r, c, chunk, cutting, sealing, probe, commitWait, hostWaitFor, t, kind, sizeHint, setPart);
    }
  }

  /** The set part --set/--part/--parts name (all three or none); null for a plain version. */
  private org.cairn.core.manifest.Manifest.SetPart setPart(CommandLine cl) {
    if (set == null && part == null && parts == null) {
      return null;
    }
    if (set == null || part == null || parts == null) {
      throw new CommandLine.ParameterException(cl, "a part of a checkpoint set needs all of --set EPOCH, --part R and --parts P");
    }
    if (step != 0) {
      throw new CommandLine.ParameterException(cl, "--step cannot be given with --set: the tracker numbers the set's version"
          + " when its last part commits");
    }
    if (!set.matches("[A-Za-z0-9._+-]{1,128}")) {
      throw new CommandLine.ParameterException(cl, "--set must be 1-128 letters, digits, '.', '_', '+' or '-', was '" + set + "'");
    }
    try {
      return new org.cairn.core.manifest.Manifest.SetPart(set, part, parts);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--part/--parts: " + e.getMessage());
    }
  }

  private boolean delta() {
    return delta.equals("on");
  }

  /** What {@code store --async --json} prints: the background store's id and how long the private copy took. */
  record Queued(String app, String node, String queued, double seconds) {}

  /** Hands the image to the agent's background stores (the app key is made now, so its warning reaches the user). */
  private int queue(CommandLine cl, org.cairn.core.crypto.Encryption sealing) throws IOException {
    if (sealing.encrypted()) {
      AppCrypto.key(root, cl, target.app); // made now, so its warning reaches the user; the agent's store seals with it
    }
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("store", "--app", target.app, "--node", nodeOption.node,
        "--step", Long.toString(step), "--redundancy", redundancy, "--compression", compression, "--encryption", encryption,
        "--chunk-size", chunkSize, "--chunking", chunking, "--placement", placement, "--commit-timeout", commitTimeout,
        "--host-wait", hostWait, "--probe-after", probeAfter, "--write", write, "--delta", delta));
    if (threads != null) {
      args.addAll(java.util.List.of("--threads", threads.toString()));
    }
    if (set != null) {
      args.addAll(java.util.List.of("--set", set, "--part", part.toString(), "--parts", parts.toString()));
    }
    args.addAll(java.util.List.of("--key-dir", root.keys().dir().toAbsolutePath().toString()));
    GridPool.Key grid = GridAccess.key(root, cl);
    long t0 = System.nanoTime();
    String id = root.session().background().submit(target.app, nodeOption.node, Path.of(file), args, grid);
    double seconds = (System.nanoTime() - t0) / 1e9;
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

  private int store(CommandLine cl, org.cairn.client.Grid grid, Redundancy r, Compressor c, int chunk,
      org.cairn.core.chunk.Chunking cutting, org.cairn.core.crypto.Encryption sealing, java.time.Duration probe,
      java.time.Duration commitWait, java.time.Duration hostWaitFor, int t, String kind, long sizeHint,
      org.cairn.core.manifest.Manifest.SetPart setPart)
      throws Exception {
    org.cairn.core.crypto.ChunkCrypto crypto = AppCrypto.of(root, cl, target.app, sealing);
    try (org.apache.commons.io.input.CountingInputStream in = new org.apache.commons.io.input.CountingInputStream(
            dir != null ? ImageSource.open(dir) : ImageSource.open(file));
        AutoCloseable progress = Progress.start(root.session().stderr(), root.session().terminal(), root.quiet() || json, "storing", in::getByteCount, sizeHint)) {
      StoreOutcome res = grid.store(in, sizeHint,
          new StoreOptions(target.app, nodeOption.node, step, r, c, chunk, t, placement, kind, clientId(root.session()), write.equals("optimistic"),
              probe, commitWait, crypto, cutting).withSet(setPart).withSoft(write.equals("soft")).withDelta(delta())
              .withHostWait(hostWaitFor));
      progress.close();
      print(res);
    }
    return 0;
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

  private void print(StoreOutcome res) throws IOException {
    StoreReport.print(spec.commandLine().getOut(), json, res, write, part);
  }
}
