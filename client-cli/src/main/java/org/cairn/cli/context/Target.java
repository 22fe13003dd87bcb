package org.cairn.cli.context;

import picocli.CommandLine.Option;

/** The picocli mixins that name what a command works on: an app, a node of it, a step of the node. */
public final class Target {
  private Target() {}

  /** {@code --app}, required. */
  public static final class App {
    @Option(names = "--app", required = true, paramLabel = "APP",
        description = "Application: one job or program whose checkpoints are kept together (dedup works within an app).")
    public String app;
  }

  /** {@code --node}, required. */
  public static final class Node {
    @Option(names = "--node", required = true, paramLabel = "NODE",
        description = "Node: one process or rank of the app; each node has its own series of checkpoints.")
    public String node;
  }

  /** {@code --step}, optional (0: the latest). */
  public static final class Step {
    @Option(names = "--step", defaultValue = "0", paramLabel = "STEP",
        description = "Step: which checkpoint of the node, numbered from 1 as they are stored (default: the latest).")
    public long step;
  }
}
