package org.cairn.cli.condor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.cairn.cli.CairnCli;
import org.cairn.cli.context.GridPool;
import org.cairn.cli.context.Session;

/** A command line run by {@link CairnCli} in this process, its output kept; the one class of the plug-in that loads the CLI. */
final class InProcessCli {
  private InProcessCli() {}

  /** The grids the commands of one run share (closed by its runner). */
  static AutoCloseable pool() {
    return new GridPool(null, null);
  }

  static CommandRunner.Result run(List<String> args, java.util.Map<String, String> env, AutoCloseable pool) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Session session = new Session(null, out, new PrintStream(err, true, StandardCharsets.UTF_8), false, env, (GridPool) pool, null);
    int code;
    try {
      code = CairnCli.run(session, args.toArray(String[]::new));
    } catch (RuntimeException | Error e) {
      err.writeBytes(("cairn: " + e + "\n").getBytes(StandardCharsets.UTF_8));
      code = 1;
    }
    return new CommandRunner.Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
