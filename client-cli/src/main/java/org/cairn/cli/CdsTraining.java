package org.cairn.cli;

import java.nio.file.Path;
import java.util.List;
import org.cairn.cli.agent.AgentClient;

/**
 * The build's training run for {@code target/cairn.jsa} (AppCDS): the classes a thin command loads
 * (it finds no agent here), then those of a client command that opens a grid and finds no tracker.
 * Nothing is stored or contacted; both fail at once.
 */
public final class CdsTraining {
  private CdsTraining() {}

  /** @param args a token file (any well-formed token) */
  public static void main(String[] args) {
    AgentClient.run(Path.of("/nonexistent", "cairn-cds-training.sock"), List.of("versions", "--app", "a", "--node", "n"), false);
    java.io.PrintStream realErr = System.err;
    System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
    try {
      CairnCli.run("--tracker", "http://127.0.0.1:9", "--token-file", args[0], "versions", "--app", "a", "--node", "n");
    } finally {
      System.setErr(realErr);
    }
  }
}
