package org.cairn.cli.context;

import java.nio.file.Path;
import org.cairn.client.keys.AppKeys;

/**
 * What a command reads from the root of its command line ({@code cairn --tracker ... --token-file ... COMMAND}): the
 * grid it names, the app keys, where it runs, and how to run another command line in a session (the agent's runner,
 * a background prefetch). The root command implements it; commands name it as their {@code @ParentCommand}, so they
 * depend on this, not on the class that lists them.
 */
public interface Root {
  /** {@code --tracker}: the tracker URL or URLs, or null. */
  String tracker();

  /** {@code --token-file}, or null. */
  Path tokenFile();

  /** {@code --key-dir}, or null. */
  Path keyDir();

  /** {@code --agent}: the agent's socket named on the command line, or null. */
  Path agentSocket();

  /** {@code --quiet}: no progress display. */
  boolean quiet();

  /** Where this command runs: this process, or an agent for a thin client. */
  Session session();

  /** The app keys this command uses. */
  AppKeys keys();

  /** Runs {@code args} as a whole command line in {@code session}; returns its exit code. */
  int runCommand(Session session, String... args);
}
