package org.cairn.cli.podman;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Podman program and the two things Cairn asks of it: a checkpoint exported as a tar, and a restore from one. The
 * binary is {@code $CAIRN_PODMAN} (a path) if set, else {@code podman} on PATH. Podman has the OCI runtime (runc, crun)
 * run {@code criu} from PATH; each run here gets a private directory holding only {@code criu}, a link to the CRIU
 * Cairn uses ({@code $CAIRN_CRIU}, else {@code criu} on PATH: {@link org.cairn.cli.criu.Criu#find}), first on its PATH,
 * so a distribution's older CRIU later on PATH is not the one that runs and nothing else is shadowed. A run that
 * outlasts its timeout is ended.
 */
final class Podman {
  /** The environment variable naming the Podman binary. */
  static final String ENV = "CAIRN_PODMAN";
  /** How many of Podman's last output lines a failure quotes. */
  static final int QUOTED_LINES = 3;
  /** How much of Podman's output is read back at most. */
  static final int TAIL = 64 << 10;

  /** What a run of Podman did: its exit status (-1: ended after its timeout), its standard output, and its last lines. */
  record Outcome(int exit, String stdout, String lastLines) {
    boolean ok() {
      return exit == 0;
    }

    /** Why the run failed, in a sentence. */
    String reason(Duration timeout) {
      String status = exit < 0 ? "podman did not finish within " + timeout.toSeconds() + " s and was ended" : "podman exited " + exit;
      return lastLines.isEmpty() ? status : status + ": " + lastLines;
    }
  }

  private final Path binary;
  private final Path criu;
  private final Duration timeout;

  Podman(Path binary, Path criu, Duration timeout) {
    this.binary = binary;
    this.criu = criu;
    this.timeout = timeout;
  }

  Duration timeout() {
    return timeout;
  }

  /** The Podman binary {@code env} names: $CAIRN_PODMAN, else podman on PATH; an error says what to do. */
  static Path find(Map<String, String> env) throws IOException {
    return org.cairn.cli.context.Executables.find(env, ENV, "podman", "install Podman (Debian: apt-get install podman runc) "
        + "or set " + ENV + "=/path/to/podman");
  }

  /** {@code podman container checkpoint --export=TAR --compress=none [--leave-running] CONTAINER}. */
  Outcome checkpoint(String container, Path tar, boolean leaveRunning, Path scratch) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("container", "checkpoint", "--export=" + tar, "--compress=none"));
    if (leaveRunning) {
      args.add("--leave-running");
    }
    args.add("--"); // a container named like a flag is still a container
    args.add(container);
    return run(args, scratch);
  }

  /** {@code podman container restore --import=TAR [--name NAME]}. */
  Outcome restore(Path tar, String name, Path scratch) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("container", "restore", "--import=" + tar));
    if (name != null) {
      args.add("--name=" + name);
    }
    return run(args, scratch);
  }

  /** Runs podman with {@code args}; its output goes to files in {@code scratch} (a private directory). */
  private Outcome run(List<String> args, Path scratch) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(binary.toString());
    cmd.addAll(args);
    Path out = scratch.resolve("podman.out");
    Path err = scratch.resolve("podman.err");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("PATH", criuFirst(scratch, pb.environment().get("PATH")));
    Process p = pb.start();
    int exit;
    if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      exit = p.exitValue();
    } else {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor();
      exit = -1;
    }
    return new Outcome(exit, tail(out), lastLines(tail(err)));
  }

  /** The last {@link #TAIL} bytes of {@code file} as text (Podman's output can be long; its last lines say why). */
  static String tail(Path file) throws IOException {
    try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(file)) {
      long size = ch.size();
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) Math.min(size, TAIL));
      ch.position(size - b.capacity());
      while (b.hasRemaining() && ch.read(b) > 0) {
        // read to the end of what was asked
      }
      return new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1);
    }
  }

  /** {@code path} with a directory of {@code scratch} holding only {@code criu} (a link to CRIU) before it. */
  String criuFirst(Path scratch, String path) throws IOException {
    Path bin = Files.createDirectories(scratch.resolve("criu-bin"));
    Path link = bin.resolve("criu");
    Files.deleteIfExists(link);
    Files.createSymbolicLink(link, criu.toAbsolutePath());
    return path == null || path.isEmpty() ? bin.toString() : bin + File.pathSeparator + path;
  }

  /** The last few non-blank lines of Podman's standard error, joined. */
  static String lastLines(String text) {
    List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    return String.join("; ", lines.subList(Math.max(0, lines.size() - QUOTED_LINES), lines.size()));
  }
}
