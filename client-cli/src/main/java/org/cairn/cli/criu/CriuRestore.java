package org.cairn.cli.criu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import org.apache.commons.io.file.PathUtils;
import org.cairn.cli.command.FetchCommand;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.client.Grid;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.chunk.ImageSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn criu restore}: fetches a dump into a private temporary directory, checks it is one, and has CRIU restore
 * it detached; exits 0 once the restored tree runs. CRIU ends a tree it could not restore whole, and a root it
 * reported but that CRIU then called failed is ended here, so a failure leaves no half-restored process.
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
    description = {"Fetch a dump of APP/NODE (the latest unless --step) into a private temporary directory and restore it "
        + "with CRIU, detached: the process tree runs on from where it was dumped, with the same pids (they must be free) "
        + "and the files it had open at the same paths. Exits 0 once it runs; the fetched images are removed.",
        "A job dumped with --part on several hosts is restored one host's tree at a time, each with its --part R, from the "
        + "newest complete set (a round some host's part of which is missing never became a version)."})
final class CriuRestore implements Callable<Integer> {
  /** What {@code restore --json} prints ({@code part} only for a part of a checkpoint set). */
  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
  record Restored(String app, String node, long step, long pid, Integer part) {}

  @CommandLine.ParentCommand
  CriuCommand parent;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @CommandLine.Mixin
  Target.Step stepOption;

  @Option(names = "--shell-job", description = "The tree was dumped with --shell-job (CRIU's --shell-job).")
  boolean shellJob;

  @Option(names = "--timeout", defaultValue = "5m", paramLabel = "DURATION",
      description = "How long CRIU may take to restore; after that it and the tasks it started are ended (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(names = "--json", description = "Print what was restored (app, node, step, the root's pid; part with --part) as JSON.")
  boolean json;

  @Option(names = "--part", paramLabel = "R",
      description = "Restore this host's tree, part R (0..P-1), of a job dumped with 'launch|dump --part R --parts P'.")
  Integer part;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    if (part != null && part < 0) {
      throw new CommandLine.ParameterException(cl, "--part must be >= 0, was " + part);
    }
    Criu criu = new Criu(Criu.find(System.getenv()), shellJob, CriuCommand.duration(cl, "--timeout", timeout));
    Path tmp = Files.createTempDirectory("cairn-criu-restore-"); // 0700: the images hold the process's memory
    try (Grid grid = GridAccess.open(parent.root, cl)) {
      // a set's version exists only once all its parts are committed, so the latest is the newest complete set
      LocatedVersion located = part == null ? grid.locate(target.app, nodeOption.node, stepOption.step)
          : grid.locate(target.app, nodeOption.node, stepOption.step, part);
      String name = target.app + "." + nodeOption.node + "." + located.manifest().step() + (part == null ? "" : " part " + part);
      if (!ImageSource.DIRECTORY.equals(located.manifest().kind())) {
        throw new IOException(name + " is a file, not a dump stored by 'cairn criu'");
      }
      Path images = tmp.resolve("images");
      FetchCommand.intoDirectory(grid, located, parent.root.keys().forVersion(located.manifest()), images);
      if (!Files.isRegularFile(images.resolve("inventory.img"))) {
        throw new IOException(name + " is not a CRIU dump (it has no inventory.img)");
      }
      long pid = restore(criu, images, tmp, name);
      if (json) {
        cl.getOut().println(Json.MAPPER.writeValueAsString(new Restored(target.app, nodeOption.node, located.manifest().step(), pid, part)));
      } else {
        cl.getOut().println("restored " + name + ": process " + pid + " runs");
      }
      return 0;
    } finally {
      PathUtils.deleteDirectory(tmp);
    }
  }

  /** Runs CRIU's restore; returns the running root's pid, or fails with nothing of the tree left running. */
  private static long restore(Criu criu, Path images, Path tmp, String name) throws IOException, InterruptedException {
    Path pidFile = tmp.resolve("restored.pid");
    CriuVerdict v = criu.restore(images, tmp.resolve("restore.log"), pidFile);
    OptionalLong pid = Criu.pid(pidFile);
    if (!v.ok()) {
      pid.ifPresent(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
      throw new IOException("CRIU could not restore " + name + ": " + v.reason());
    }
    if (pid.isEmpty() || ProcessHandle.of(pid.getAsLong()).map(h -> !h.isAlive()).orElse(true)) {
      throw new IOException("CRIU reported " + name + " restored, but its process is not running");
    }
    return pid.getAsLong();
  }
}
