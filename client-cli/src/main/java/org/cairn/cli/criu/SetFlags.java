package org.cairn.cli.criu;

import org.cairn.core.manifest.Manifest;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --part R --parts P [--set EPOCH]} of {@code criu launch|dump}: a job whose process trees run on P hosts, each
 * host's dump stored as part R of one checkpoint set per round, which becomes a version only when all P parts are
 * committed (docs/operations.md, "Checkpoint sets"; the tracker's {@code CheckpointSets}). Without these flags each dump
 * is a version of its own, as before. How a round's set is named so that the hosts agree is {@link SetRounds}'.
 */
final class SetFlags {
  /** The longest {@code --set} of a launch: its round's name (at most 21 characters) is appended to it. */
  static final int MAX_LAUNCH_PREFIX = 100;
  private static final String NAME = "[A-Za-z0-9._+-]{1,128}";

  @Option(names = "--part", paramLabel = "R",
      description = {"This host's tree is part R (0..P-1) of a job whose trees run on --parts P hosts: each dump is stored as "
          + "part R of that round's checkpoint set, which becomes one version of APP/NODE only when all P hosts' parts are "
          + "committed ('cairn criu restore --part R' restores this host's tree from the newest complete one). A host whose "
          + "dump fails leaves its part absent: that round never becomes a version. Needs --parts."})
  Integer part;

  @Option(names = "--parts", paramLabel = "P", description = "How many hosts' trees the job has, 1.." + Manifest.SetPart.MAX_PARTS
      + " (with --part).")
  Integer parts;

  @Option(names = "--set", paramLabel = "EPOCH",
      description = {"With --part: the set's name, the same on every host (letters, digits, '.', '_', '+', '-'). For 'dump', "
          + "the set itself (default: the UTC minute, rounded to the nearest, with '-dump': 20261202T2031Z-dump); for "
          + "'launch', a prefix of at most " + MAX_LAUNCH_PREFIX + " characters put before each round's name (EPOCH.ROUND)."})
  String set;

  /** This host's part, or null when none of these flags is given (each dump a version of its own). */
  HostPart hostPart(CommandLine cl, boolean launch) {
    if (part == null && parts == null && set == null) {
      return null;
    }
    if (part == null || parts == null) {
      throw usage(cl, (part == null ? (parts == null ? "--set" : "--parts") : "--part")
          + " needs both --part R and --parts P: this host's part and how many hosts' trees the job has");
    }
    if (set != null && !set.matches(NAME)) {
      throw usage(cl, "--set must be 1-128 letters, digits, '.', '_', '+' or '-', was '" + set + "'");
    }
    if (launch && set != null && set.length() > MAX_LAUNCH_PREFIX) {
      throw usage(cl, "--set of a launch is a prefix of each round's set name: at most " + MAX_LAUNCH_PREFIX + " characters, was "
          + set.length());
    }
    try {
      new Manifest.SetPart("check", part, parts);
    } catch (IllegalArgumentException e) {
      throw usage(cl, "--part/--parts: " + e.getMessage());
    }
    return new HostPart(set, part, parts);
  }

  private static CommandLine.ParameterException usage(CommandLine cl, String message) {
    return new CommandLine.ParameterException(cl, message);
  }

  /**
   * Part {@code part} of {@code parts}; {@code given}: the {@code --set} given (the set of a dump, a prefix of a launch's
   * rounds), or null.
   */
  record HostPart(String given, int part, int parts) {
    /** This host's part of the set {@code name}. */
    Manifest.SetPart of(String name) {
      return new Manifest.SetPart(name, part, parts);
    }

    /** This host's part of a launch's round {@code round} ({@link SetRounds}): the round, after the prefix if given. */
    Manifest.SetPart ofRound(String round) {
      return of(given == null ? round : given + "." + round);
    }
  }
}
