package org.cairn.cli.context;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.cairn.cli.output.StandardOutput;

/**
 * Where a command runs and whom it talks to: this process (the default), or a {@code cairn agent}
 * running it for a thin client. The client's working directory resolves its relative paths, its
 * standard output takes fetched data, its standard error takes progress (shown only when it is a
 * terminal), its {@code CAIRN_*} environment says which grid, token and keys it means, and an agent
 * lends its open grids and its queue of background stores.
 *
 * @param cwd the client's working directory (relative paths resolve against it)
 * @param stdout where a fetch to standard output writes
 * @param stderr where progress is drawn
 * @param terminal whether the client's standard error is a terminal
 * @param env the client's environment (its {@code CAIRN_*} variables when an agent runs the command)
 * @param grids the agent's open grids, one lent to the command (null: open one from the flags)
 * @param background the agent's background stores (null: no agent)
 */
public record Session(Path cwd, OutputStream stdout, PrintStream stderr, boolean terminal, java.util.Map<String, String> env, GridPool grids,
    Background background) {

  /** A command in this process: paths as given, this process's streams and environment. */
  public static Session local() {
    return new Session(null, new StandardOutput(new FileOutputStream(FileDescriptor.out)), System.err, System.console() != null,
        System.getenv(), null, null);
  }

  /** The client's variable {@code name}, or null. */
  public String env(String name) {
    return env == null ? null : env.get(name);
  }

  /** Whether an agent runs this command for a client. */
  public boolean agent() {
    return grids != null;
  }

  /** {@code p} as the client means it: against its working directory when relative. */
  public Path path(Path p) {
    return p == null || cwd == null ? p : cwd.resolve(p);
  }

  /** A FILE argument as the client means it ('-' stays '-'). */
  public String path(String p) {
    return p == null || cwd == null || p.equals("-") ? p : cwd.resolve(p).toString();
  }

  /** The agent side of {@code store --async}, {@code wait} and {@code prefetch}. */
  public interface Background {
    /** Queues {@code store} (of a private copy of its image, made now) to {@code grid} and returns its ticket. */
    String submit(QueuedStore store, GridPool.Key grid) throws java.io.IOException;

    /** Blocks until every background store of app/node queued so far has ended; their outcomes. */
    java.util.List<Outcome> await(String app, String node) throws InterruptedException;

    /** Where the agent keeps private copies of images (the same file system makes copies cheap). */
    Path spool();
  }

  /** How one background store ended: its exit code and what it printed. */
  public record Outcome(String app, String node, int exit, String out, String err) {}
}
