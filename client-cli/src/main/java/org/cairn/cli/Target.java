package org.cairn.cli;

import picocli.CommandLine.Option;

/** The picocli mixins that name what a command works on: an app, a node of it, a step of the node. */
final class Target {
  private Target() {}

  /** {@code --app}, required. */
  static final class App {
    @Option(names = "--app", required = true, paramLabel = "APP",
        description = "Application: one job or program whose checkpoints are kept together (dedup works within an app).")
    String app;
  }

  /** {@code --node}, required. */
  static final class Node {
    @Option(names = "--node", required = true, paramLabel = "NODE",
        description = "Node: one process or rank of the app; each node has its own series of checkpoints.")
    String node;
  }

  /** {@code --step}, optional (0: the latest). */
  static final class Step {
    @Option(names = "--step", defaultValue = "0", paramLabel = "STEP",
        description = "Step: which checkpoint of the node, numbered from 1 as they are stored (default: the latest).")
    long step;
  }
}
