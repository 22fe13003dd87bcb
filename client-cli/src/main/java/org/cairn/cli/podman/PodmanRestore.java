package org.cairn.cli.podman;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.client.Grid;
import org.cairn.client.fetch.Fetcher;
import org.cairn.core.api.catalog.LocatedVersion;
import org.cairn.core.chunk.ImageSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn podman restore}: fetches a checkpoint export into a 0600 tar in a private directory, checks it is one, and
 * has Podman restore the container from it; exits 0 once Podman has. The tar is removed either way.
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
    description = {"Fetch a checkpoint of APP/NODE (the latest unless --step) stored by 'cairn podman checkpoint' or "
        + "'cairn store EXPORT.tar', and restore the container with Podman (podman container restore --import): it runs on "
        + "from where it was checkpointed. A container of the same name must not exist here, unless --name gives the "
        + "restored one another. Prints the container's id; exits 1 with Podman's last error lines if Podman fails."})
final class PodmanRestore implements Callable<Integer> {
  /** What {@code restore --json} prints. */
  record Restored(String app, String node, long step, String container) {}

  /** A member every Podman checkpoint export holds (CRIU's inventory of the dump). */
  static final String INVENTORY = "checkpoint/inventory.img";

  @CommandLine.ParentCommand
  PodmanCommand parent;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @CommandLine.Mixin
  Target.Step stepOption;

  @Option(names = {"-n", "--name"}, paramLabel = "NAME",
      description = "Restore as a new container of this name (Podman's --name), e.g. beside the one checkpointed.")
  String name;

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = "Where the export is fetched to before Podman imports it (default: ~/.cache/cairn/podman/APP/NODE).")
  Path workDir;

  @Option(names = "--timeout", defaultValue = "5m", paramLabel = "DURATION",
      description = "How long Podman's restore may take, at least 1s; after that it is ended (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(names = "--json", description = "Print what was restored (app, node, step, the container's id) as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    if (name != null && name.isBlank()) {
      throw new CommandLine.ParameterException(cl, "--name must not be empty");
    }
    Podman podman = PodmanCommand.podman(cl, timeout);
    Path work = PodmanCommand.workDir(parent.root, workDir, target.app, nodeOption.node);
    try (Grid grid = GridAccess.open(parent.root, cl); Scratch scratch = Scratch.under(work, "restore-")) {
      LocatedVersion located = grid.locate(target.app, nodeOption.node, stepOption.step);
      String version = target.app + "." + nodeOption.node + "." + located.manifest().step();
      if (ImageSource.DIRECTORY.equals(located.manifest().kind())) {
        throw new IOException(version + " is a directory, not a Podman export (a CRIU dump? restore it with 'cairn criu restore')");
      }
      Path tar = scratch.tar("export.tar");
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tar), 1 << 20)) {
        grid.fetch(located, Fetcher.Options.defaults(), out, parent.root.keys().forVersion(located.manifest()));
      }
      if (!isExport(tar)) {
        throw new IOException(version + " is not a Podman checkpoint export (a tar holding " + INVENTORY + ")");
      }
      Podman.Outcome o = podman.restore(tar, name, scratch.dir());
      if (!o.ok()) {
        throw new IOException("podman could not restore " + version + ": " + o.reason(podman.timeout()));
      }
      String id = o.stdout().lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> b).orElse("");
      if (json) {
        cl.getOut().println(Json.MAPPER.writeValueAsString(new Restored(target.app, nodeOption.node, located.manifest().step(), id)));
      } else {
        cl.getOut().println("restored " + version + ": container " + id + " runs");
      }
      return 0;
    }
  }

  /** Whether {@code tar} is a tar holding {@link #INVENTORY} (read with Commons Compress; anything else is not). */
  static boolean isExport(Path tar) throws IOException {
    try (InputStream in = Files.newInputStream(tar); TarArchiveInputStream t = new TarArchiveInputStream(in)) {
      for (TarArchiveEntry e = t.getNextEntry(); e != null; e = t.getNextEntry()) {
        String n = e.getName().startsWith("./") ? e.getName().substring(2) : e.getName();
        if (n.equals(INVENTORY) && e.isFile() && !e.isSymbolicLink() && !e.isLink()) {
          return true;
        }
      }
      return false;
    } catch (IOException | IllegalArgumentException notATar) {
      return false;
    }
  }
}
