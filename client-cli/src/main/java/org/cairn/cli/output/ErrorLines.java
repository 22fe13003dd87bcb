package org.cairn.cli.output;

import picocli.CommandLine;

/** The one-line errors a command line gets: an unknown option with the near ones it may have meant, a failure said plainly. */
public final class ErrorLines {
  private ErrorLines() {}

  /** "cairn store: unknown option '--ap' (did you mean --app?)" for the first option the command does not have, else null. */
  public static String unknownOption(CommandLine cmd, String[] args) {
    for (String a : args) {
      if (!a.startsWith("-") || a.equals("-") || a.equals("--")) {
        continue;
      }
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (cmd.getCommandSpec().findOption(name) != null || cmd.getParent() != null && cmd.getParent().getCommandSpec().findOption(name) != null) {
        continue;
      }
      java.util.List<String> near = new java.util.ArrayList<>();
      for (CommandLine.Model.OptionSpec o : cmd.getCommandSpec().options()) {
        String longest = o.longestName();
        if (longest.startsWith(name) || name.startsWith(longest) || editDistance(longest, name) <= 2) {
          near.add(longest);
        }
      }
      return "cairn " + cmd.getCommandName() + ": unknown option '" + name + "'"
          + (near.isEmpty() ? "" : " (did you mean " + String.join(" or ", near) + "?)");
    }
    return null;
  }

  private static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /** A one-line message: the JDK's file exceptions carry only the path, so say what happened to it. */
  public static String message(Throwable e) {
    if (e instanceof java.nio.file.NoSuchFileException f) {
      return f.getFile() + ": no such file or directory" + (f.getReason() != null ? " (" + f.getReason() + ")" : "");
    }
    if (e instanceof java.nio.file.AccessDeniedException f) {
      return f.getFile() + ": permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
      return f.getFile() + ": " + f.getReason();
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }
}
