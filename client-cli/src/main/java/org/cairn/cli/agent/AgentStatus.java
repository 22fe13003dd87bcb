package org.cairn.cli.agent;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * What {@code cairn agent status} reports of a running agent ({@code --json}: this record).
 *
 * @param running true (a status that found no agent is {@code {"running": false, "socket": ...}})
 * @param pid the agent's process id
 * @param socket the socket it serves
 * @param since when it started (ISO-8601)
 * @param served commands it has run for clients
 * @param commandsRunning commands running now (this status request included)
 * @param watching jobs watching for checkpoint notices ({@code cairn dmtcp launch})
 * @param background background stores queued or running
 * @param grids the tracker groups it has open
 * @param idleSeconds seconds since its last command ended
 * @param idleExitSeconds it exits after this many idle seconds (null: never)
 * @param jar the jar it runs (a new build there ends it)
 * @param heapUsedBytes its Java heap in use
 */
record AgentStatus(boolean running, long pid, String socket, String since, long served, int commandsRunning, int watching, int background, List<String> grids,
    long idleSeconds, Long idleExitSeconds, String jar, long heapUsedBytes) {

  void print(PrintStream out) {
    out.println("agent running (pid " + pid + ") on " + socket + " since " + since);
    out.println("  served " + served + " commands; running " + commandsRunning + ", background stores " + background
        + ", jobs watching for checkpoint notices " + watching);
    out.println("  grids: " + (grids.isEmpty() ? "none open yet" : String.join("; ", grids)));
    out.println("  idle " + human(Duration.ofSeconds(idleSeconds))
        + (idleExitSeconds == null ? " (never exits when idle)" : "; exits after " + human(Duration.ofSeconds(idleExitSeconds)) + " idle"));
    out.println("  jar " + jar + "; heap in use " + (heapUsedBytes >> 20) + " MiB");
  }

  /** "30m", "1h 5m", "45s". */
  static String human(Duration d) {
    long s = d.toSeconds();
    if (s < 60) {
      return s + "s";
    }
    long m = s / 60;
    return m < 60 ? m + "m" : m / 60 + "h" + (m % 60 == 0 ? "" : " " + m % 60 + "m");
  }
}
