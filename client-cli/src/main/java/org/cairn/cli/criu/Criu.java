package org.cairn.cli.criu;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The CRIU program and the two things Cairn asks of it. The binary is {@code $CAIRN_CRIU} (a path) if set, else
 * {@code criu} on PATH. Each run logs at -v3 (info: the success line, not the per-page debug lines) to a file of its own, is
 * ended if it outlasts its timeout, and its outcome is a {@link CriuVerdict}.
 */
public final class Criu {
  /** The environment variable naming the CRIU binary. */
  public static final String ENV = "CAIRN_CRIU";

  private final Path binary;
  private final boolean shellJob;
  private final java.time.Duration timeout;

  Criu(Path binary, boolean shellJob, java.time.Duration timeout) {
    this.binary = binary;
    this.shellJob = shellJob;
    this.timeout = timeout;
  }

  Path binary() {
    return binary;
  }

  /** The CRIU binary {@code env} names: $CAIRN_CRIU, else criu on PATH; an error says how to get one. */
  public static Path find(Map<String, String> env) throws IOException {
    return org.cairn.cli.context.Executables.find(env, ENV, "criu", "build CRIU with third_party/criu/build.sh PREFIX "
        + "(see docs/operations.md, 'CRIU jobs') and set " + ENV + "=PREFIX/sbin/criu");
  }

  /** Dumps the process tree rooted at {@code pid} into {@code images} (an empty directory), logging to {@code log}. */
  CriuVerdict dump(long pid, Path images, Path log, boolean leaveRunning) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(binary.toString(), "dump", "-t", Long.toString(pid), "-D", images.toString(),
        "-o", log.toString(), "-v3"));
    if (leaveRunning) {
      cmd.add("--leave-running");
    }
    return run(CriuVerdict.Action.DUMP, cmd, log);
  }

  /** Restores the tree dumped in {@code images}, detached; its root's pid goes to {@code pidFile}. */
  CriuVerdict restore(Path images, Path log, Path pidFile) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(binary.toString(), "restore", "-D", images.toString(), "-d", "-o", log.toString(),
        "-v3", "--pidfile", pidFile.toString()));
    return run(CriuVerdict.Action.RESTORE, cmd, log);
  }

  private CriuVerdict run(CriuVerdict.Action action, List<String> cmd, Path log) throws IOException, InterruptedException {
    if (shellJob) {
      cmd.add("--shell-job");
    }
    // CRIU's own output (it logs to the file) and anything a wrapper prints go to the log's neighbour
    Path out = log.resolveSibling(log.getFileName() + ".out");
    Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!p.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      // CRIU 4.2's restorer spins for ever on a truncated pages image: end it and the tasks it was restoring
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor();
      return new CriuVerdict(false, "CRIU did not finish within " + timeout.toSeconds() + " s; it and the tasks it had started "
          + "were ended");
    }
    int exit = p.exitValue();
    String text = Files.exists(log) ? Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1) : null;
    return CriuVerdict.of(action, exit, text);
  }

  /** The pid CRIU wrote to {@code pidFile}, if it wrote one. */
  static OptionalLong pid(Path pidFile) throws IOException {
    if (!Files.isRegularFile(pidFile)) {
      return OptionalLong.empty();
    }
    String s = Files.readString(pidFile).strip();
    try {
      long pid = Long.parseLong(s);
      return pid > 0 ? OptionalLong.of(pid) : OptionalLong.empty();
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
