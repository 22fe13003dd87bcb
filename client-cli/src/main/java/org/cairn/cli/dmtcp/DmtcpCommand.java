package org.cairn.cli.dmtcp;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.cairn.cli.command.FetchCommand;
import org.cairn.cli.command.StoreCommand;
import org.cairn.cli.command.StoreFlags;
import org.cairn.cli.context.AppCrypto;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.client.Grid;
import org.cairn.client.dmtcp.CheckpointDir;
import org.cairn.client.store.StoreOptions;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.config.Durations;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.util.UserCache;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code cairn dmtcp launch|restart}: jobs checkpointed by DMTCP, their checkpoints kept on the grid
 * (DMTCP's commands are found on PATH).
 */
@Command(name = "dmtcp", header = "Run a program under DMTCP with its checkpoints kept on the grid.", mixinStandardHelpOptions = true,
    description = {"Run a program under DMTCP with each checkpoint stored on the grid as it completes, and restart it from the "
        + "grid on any host. DMTCP's commands (dmtcp_launch, dmtcp_restart) must be on PATH."},
    subcommands = {DmtcpCommand.Launch.class, DmtcpCommand.Restart.class})
public final class DmtcpCommand {
  @CommandLine.ParentCommand
  Root root;

  /** What launch and restart share: where checkpoints go locally and how they are stored. */
  static final class JobOptions {
    @CommandLine.Mixin
    Target.App target;

    @CommandLine.Mixin
    NodeOption nodeOption;

    @Option(names = "--interval", defaultValue = "10m", paramLabel = "DURATION",
        description = {"Time between checkpoints (DMTCP's --interval, whole seconds; default: ${DEFAULT-VALUE}), or 'auto': the "
            + "interval 'cairn advise' gives for this host and node, followed as it changes (Cairn then drives the checkpoints)."})
    String interval;

    @Option(names = "--ckpt-dir", paramLabel = "DIR",
        description = {"Where DMTCP writes checkpoints before they are stored; older ones are removed once a newer one is "
            + "committed (default: ~/.cache/cairn/dmtcp/APP/NODE, or under $XDG_CACHE_HOME/cairn)."})
    Path ckptDir;

    @CommandLine.Mixin
    StoreFlags store;

    @CommandLine.Mixin
    StoreFlags.Cutting cutting;

    /** The sealing a restart goes on with when --encryption is not given (null: the flag's). */
    Encryption sealing;

    @Option(names = "--slurm", description = {"Run as a Slurm batch job's shell (exec this command in the batch script): "
        + "SIGUSR1 (sbatch --signal=B:USR1@N, scancel -b -s USR1) stores a checkpoint while the program runs on; the SIGTERM "
        + "of a requeue or preemption stores one and ends the program; a requeued run (SLURM_RESTART_COUNT > 0) of "
        + "'launch' restarts from the grid's latest version instead. --node defaults to the job's id (ARRAYJOB_TASK for "
        + "an array task). See docs/slurm.md."})
    boolean slurm;

    /** The Slurm job this runs as (--slurm), else null; read once the options are parsed. */
    SlurmEnv slurmEnv;

    /** Applies --slurm: reads the job's environment and gives --node its default; --node is required otherwise. */
    void resolveNode(CommandLine cl) {
      if (slurm) {
        try {
          slurmEnv = SlurmEnv.of(System.getenv());
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(cl, "--slurm: " + e.getMessage());
        }
        if (nodeOption.node == null) {
          nodeOption.node = slurmEnv.node();
        }
      } else if (nodeOption.node == null) {
        throw new CommandLine.ParameterException(cl, "Missing required option: '--node=NODE' (or --slurm, inside a Slurm job)");
      }
    }

    @Option(names = "--no-notices", description = {"Do not watch this user's agent for checkpoint notices. By default the job "
        + "checkpoints and stores at once when the agent says so (the donor app's owner came back, 'cairn agent "
        + "notify-checkpoint'); CAIRN_AGENT=off and --no-agent also turn this off."})
    boolean noNotices;

    /** Whether the job watches the agent for checkpoint notices ({@link NoticeListener}). */
    boolean listensForNotices(CommandLine cl) {
      for (CommandLine c = cl; c != null; c = c.getParent()) {
        if (c.getParseResult() != null && c.getParseResult().hasMatchedOption("--no-agent")) {
          return false;
        }
      }
      return !noNotices && org.cairn.cli.agent.wire.AgentSocket.selfStarting(new String[0], System.getenv());
    }

    /** Whether Cairn drives the checkpoints on the advised interval ({@link AutoInterval}). */
    boolean auto() {
      return "auto".equalsIgnoreCase(interval);
    }

    /** DMTCP's interval in seconds (0, its timer off, with {@code auto}). */
    long intervalSeconds(CommandLine cl) {
      if (auto()) {
        return 0;
      }
      try {
        Duration d = Durations.parse(interval);
        long s = Math.max(1, (d.toMillis() + 999) / 1000);
        return s;
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, "--interval: " + e.getMessage());
      }
    }

    Path ckptDir(Root root) {
      Path p = root.session().path(ckptDir);
      return p != null ? p
          : UserCache.dir().resolve("dmtcp").resolve(target.app).resolve(nodeOption.node);
    }

    /** How each checkpoint is stored: the next step of app/node, a directory version. */
    StoreOptions storeOptions(Root root, CommandLine cl) throws IOException {
      UnaryOperator<StoreOptions> shape = StoreFlags.all(cl, store.shape(cl), cutting.shape(cl));
      ChunkCrypto crypto = AppCrypto.of(root, cl, target.app, sealing != null ? sealing : store.encryption(cl));
      return shape.apply(StoreOptions.defaults(target.app, nodeOption.node, ImageSource.DIRECTORY, StoreCommand.clientId(), crypto));
    }
  }

  /** {@code --node}: required unless --slurm gives it a default ({@link JobOptions#resolveNode}). */
  static final class NodeOption {
    @Option(names = "--node", paramLabel = "NODE", description = {"Node: one process or rank of the app; each node has its own "
        + "series of checkpoints (required, except with --slurm: the job's id)."})
    String node;
  }

  /**
   * Runs the job under DMTCP with checkpoints stored; returns the program's exit status. Under
   * {@code slurm} (not null) the computation ignores SIGTERM and the signals go to {@link SlurmJob}.
   */
  static int runJob(Root root, CommandLine cl, JobOptions o, List<String> command, Path restoredCopy, Grid grid, SlurmJob slurm)
      throws Exception {
    CheckpointDir checkpoints = new CheckpointDir(o.ckptDir(root));
    StoreOptions options = o.storeOptions(root, cl);
    DmtcpJob job = new DmtcpJob(checkpoints, dir -> DmtcpJob.storeGeneration(grid, options, dir), cl.getErr());
    if (restoredCopy != null) {
      job.removeAfterNextCommit(restoredCopy);
    }
    try (AutoInterval auto = o.auto() ? autoInterval(root, cl, o, grid) : null;
        NoticeListener notices = o.listensForNotices(cl) ? new NoticeListener(
            org.cairn.cli.agent.wire.AgentSocket.resolve(root.agentSocket(), System.getenv()),
            o.target.app + "." + o.nodeOption.node, job::checkpointNow, cl.getErr()).start() : null) {
      if (slurm == null) {
        return job.run(command);
      }
      slurm.attach(job);
      int status = job.run(SlurmJob.ignoringTerm(command));
      return slurm.terminated() ? SlurmJob.TERMINATED : status;
    }
  }

  /** Checkpoints on the advised interval of this host and node ({@code --interval auto}). */
  private static AutoInterval autoInterval(Root root, CommandLine cl, JobOptions o, Grid grid) throws IOException {
    java.nio.file.Path portFile = o.ckptDir(root).resolve(".coordinator-port");
    java.nio.file.Files.deleteIfExists(portFile); // a port an earlier coordinator wrote
    org.cairn.client.advise.CheckpointCosts costs = org.cairn.client.advise.CheckpointCosts.local();
    org.cairn.client.advise.Advisor advisor = new org.cairn.client.advise.Advisor(grid.tracker(), costs);
    String host = StoreCommand.clientId(root.session());
    return new AutoInterval(() -> advisor.advise(o.target.app, o.nodeOption.node, host, null, null), AutoInterval.dmtcpCommand(portFile),
        costs, o.target.app, o.nodeOption.node, cl.getErr()).start();
  }

  @Command(name = "launch", mixinStandardHelpOptions = true, resourceBundle = "org.cairn.cli.dmtcp.DmtcpCommand$Help",
      description = {"Run PROGRAM under DMTCP (a coordinator of its own, images without gzip) with its standard streams those of "
          + "this command; each checkpoint (every image plus the restart script) is stored as one version of APP/NODE as "
          + "soon as DMTCP has written it. Exits with PROGRAM's status once the last checkpoint is stored."})
  static final class Launch implements java.util.concurrent.Callable<Integer> {
    @CommandLine.ParentCommand
    DmtcpCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    JobOptions job;

    @CommandLine.Parameters(arity = "1..*", paramLabel = "PROGRAM", description = "The program and its arguments (after --).")
    List<String> program;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      job.resolveNode(cl);
      SlurmJob slurm = job.slurm ? SlurmJob.handleSignals(cl.getErr()) : null;
      long interval = job.intervalSeconds(cl);
      Path dir = job.ckptDir(parent.root);
      List<String> command = new ArrayList<>(List.of(DmtcpJob.onPath("dmtcp_launch"), "--new-coordinator", "--coord-port", "0",
          "--port-file", dir.resolve(".coordinator-port").toString(), "--ckptdir", dir.toString(), "--no-gzip",
          "--enable-unique-checkpoint-filenames", "--interval", Long.toString(interval)));
      command.addAll(program);
      try (Grid grid = GridAccess.open(parent.root, cl)) {
        if (slurm != null && slurm.resumes(job.slurmEnv, grid.versions(job.target.app, job.nodeOption.node))) {
          return restartFromGrid(parent.root, cl, job, 0, grid, slurm);
        }
        return runJob(parent.root, cl, job, command, null, grid, slurm);
      }
    }
  }

  @Command(name = "restart", mixinStandardHelpOptions = true, resourceBundle = "org.cairn.cli.dmtcp.DmtcpCommand$Help",
      description = {"Fetch a checkpoint of APP/NODE (the latest unless --step) into the checkpoint directory and restart it here "
          + "under DMTCP; its later checkpoints are stored as new versions, as 'launch' does."})
  static final class Restart implements java.util.concurrent.Callable<Integer> {
    @CommandLine.ParentCommand
    DmtcpCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    JobOptions job;

    @CommandLine.Mixin
    Target.Step stepOption;

    @Override
    public Integer call() throws Exception {
      CommandLine cl = spec.commandLine();
      job.resolveNode(cl);
      SlurmJob slurm = job.slurm ? SlurmJob.handleSignals(cl.getErr()) : null;
      try (Grid grid = GridAccess.open(parent.root, cl)) {
        return restartFromGrid(parent.root, cl, job, stepOption.step, grid, slurm);
      }
    }
  }

  /** Fetches version {@code step} (0: the latest) of the job's app/node and restarts it under DMTCP; see {@link Restart}. */
  static int restartFromGrid(Root root, CommandLine cl, JobOptions job, long step, Grid grid, SlurmJob slurm) throws Exception {
    long interval = job.intervalSeconds(cl);
    Path dir = job.ckptDir(root);
    String restart = DmtcpJob.onPath("dmtcp_restart");
    org.cairn.core.api.catalog.LocatedVersion located = grid.locate(job.target.app, job.nodeOption.node, step);
    if (!ImageSource.DIRECTORY.equals(located.manifest().kind())) {
      throw new IOException(job.target.app + "." + job.nodeOption.node + "." + located.manifest().step()
          + " is a file, not a checkpoint stored by 'cairn dmtcp launch'");
    }
    Path restored = dir.resolve("restored-" + located.manifest().step());
    if (java.nio.file.Files.exists(restored)) {
      // an earlier restart's copy of the same version (its job ended before a newer checkpoint replaced it)
      org.apache.commons.io.file.PathUtils.deleteDirectory(restored);
    }
    FetchCommand.intoDirectory(grid, located, root.keys().forVersion(located.manifest()), restored);
    if (!cl.getParseResult().hasMatchedOption("--encryption")) {
      // the job goes on as it was stored: an app kept unencrypted gets no key (which would refuse its versions later)
      String sealed = located.manifest().encryption();
      job.sealing = Encryption.parse(sealed == null || sealed.isBlank() ? "none" : sealed);
    }
    List<java.nio.file.Path> images = CheckpointDir.images(restored);
    if (images.isEmpty()) {
      throw new IOException(located.manifest() + " holds no DMTCP image (ckpt_*.dmtcp)");
    }
    cl.getErr().println("cairn dmtcp: restarting " + images.size() + " process(es) of " + job.target.app + "." + job.nodeOption.node
        + "." + located.manifest().step());
    cl.getErr().flush();
    List<String> command = new ArrayList<>(List.of(restart, "--new-coordinator", "--coord-port", "0", "--port-file",
        dir.resolve(".coordinator-port").toString(), "--ckptdir", dir.toString(), "--interval", Long.toString(interval)));
    images.forEach(p -> command.add(p.toString()));
    return runJob(root, cl, job, command, restored, grid, slurm);
  }

  /** How launch and restart word the store flags they share with {@code cairn store} ({@link StoreFlags}). */
  public static final class Help extends java.util.ListResourceBundle {
    @Override
    protected Object[][] getContents() {
      return new Object[][] {
          {StoreFlags.REDUNDANCY_KEY, "code:M+K, cauchy:M+K or replicate:R (default: ${DEFAULT-VALUE})."},
          {StoreFlags.ENCRYPTION_KEY, "aes-gcm (default), aes-siv or none, as for 'cairn store'; a restart keeps the encryption of the "
              + "version it restarts from unless this says otherwise."},
          {StoreFlags.WRITE_KEY, "pessimistic (default), optimistic or soft, as for 'cairn store'."},
          {StoreFlags.CHUNKING_KEY, "How images are cut, as for 'cairn store' (default: ${DEFAULT-VALUE})."}};
    }
  }
}
