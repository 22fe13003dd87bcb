package org.cairn.cli.agent.wire;

import java.util.List;
import java.util.Set;

/**
 * What the entry point, the agent and the logging set-up read from a command line before picocli parses it: the
 * command word, {@code -v}, and the root's flags a command line lacks. JDK classes only, as the rest of this package:
 * the thin client uses it.
 */
public final class Argv {
  /** Commands an agent runs. */
  public static final Set<String> HANDED = Set.of("store", "fetch", "verify", "versions", "wait", "prefetch");
  /** The root's options that take a value (the next argument is theirs, never a command's name). */
  public static final Set<String> VALUED = Set.of("--tracker", "--token-file", "--key-dir", "--agent");

  private Argv() {}

  /** The command word of {@code args} (the first word that is neither an option nor a global option's value), or null. */
  public static String commandOf(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (VALUED.contains(args[i])) {
        i++;
      } else if (!args[i].startsWith("-")) {
        return args[i];
      }
    }
    return null;
  }

  /** Whether {@code args} ask for -v ({@code --verbose}, or {@code -v} among other one-letter flags, as {@code -qv}), before {@code --}. */
  public static boolean verboseIn(String[] args) {
    for (String a : args) {
      if (a.equals("--")) {
        return false;
      }
      if (a.equals("--verbose") || a.matches("-[hqvV]*v[hqvV]*")) {
        return true;
      }
    }
    return false;
  }

  /** {@code args} after each of {@code flags} (name, value) whose value is set and whose name the arguments do not give. */
  public static List<String> withFlags(List<String> args, java.util.Map<String, String> flags) {
    List<String> out = new java.util.ArrayList<>();
    flags.forEach((flag, value) -> {
      if (value != null && !value.isBlank() && args.stream().noneMatch(a -> a.equals(flag) || a.startsWith(flag + "="))) {
        out.add(flag);
        out.add(value);
      }
    });
    out.addAll(args);
    return out;
  }
}
