package org.cairn.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.cairn.cli.agent.AgentSpawn;
import org.cairn.cli.agent.wire.AgentClient;
import org.cairn.cli.agent.wire.AgentSocket;
import org.cairn.cli.agent.wire.Argv;

/**
 * {@code cairn}'s entry point. The commands a job runs (store, fetch, verify, versions, wait, prefetch)
 * are handed to an agent when one answers: the one {@code --agent SOCKET} or {@code CAIRN_AGENT_SOCKET}
 * names, else this user's own ({@link AgentSocket#standard}); this process then loads only JDK classes
 * and the agent's warm JVM does the work. Everything else, and every command no agent takes, runs here
 * through {@link CairnCli}; when this user's own agent was not there, such a command starts it after it
 * has run ({@link AgentSpawn}), for the commands after it. {@code CAIRN_AGENT=off} or {@code --no-agent}:
 * everything here, no agent started.
 */
public final class Main {
  /** Set by the thin path's launcher when no agent took the command: it runs here. */
  private static final String ABSENT = "CAIRN_AGENT_ABSENT";

  private Main() {}

  static final String NETTY_REFLECTION = "io.netty.tryReflectionSetAccessible";

  public static void main(String[] args) {
    // Netty's pooled direct memory without zeroing each 4 MiB chunk (ByteBuffer.allocateDirect does; 2 % of a
    // one-command store's CPU): its reflective path to DirectByteBuffer's constructor, which the jar's manifest opens
    // (Add-Opens: java.base/java.nio). Set before any Netty class is loaded; -D on the command line wins.
    if (System.getProperty(NETTY_REFLECTION) == null) {
      System.setProperty(NETTY_REFLECTION, "true");
    }
    String socket = System.getenv("CAIRN_AGENT_SOCKET");
    String command = Argv.commandOf(args);
    for (int i = 0; i < args.length && !args[i].equals(command); i++) {
      String a = args[i];
      if (a.equals("--agent") && i + 1 < args.length) {
        socket = args[i + 1];
      } else if (a.startsWith("--agent=")) {
        socket = a.substring("--agent=".length());
      }
      if (Argv.VALUED.contains(a)) {
        i++;
      }
    }
    boolean named = socket != null && !socket.isBlank();
    boolean own = !named && handed(command, args) && AgentSocket.selfStarting(args, System.getenv());
    if (named && handed(command, args)) {
      handOver(Path.of(socket), command, args, true);
    } else if (own) {
      Path standard = AgentSocket.standard();
      if (java.nio.file.Files.exists(standard)) {
        handOver(standard, command, args, false);
      }
      CairnCli.main(args, code -> {
        if (code == 0) {
          AgentSpawn.start(standard); // not after a usage error or a failure: the next command would fail the same way
        }
      });
      return;
    }
    CairnCli.main(args);
  }

  /**
   * Hands the command to the agent at {@code socket} and exits with its code; returns when no agent took it (the
   * command then runs here: {@code notice} says so in one line, for an agent the user named).
   */
  private static void handOver(Path socket, String command, String[] args, boolean notice) {
    AgentClient.Outcome o = AgentClient.run(socket, withClientsSettings(args, System.getenv()), System.console() != null);
    if (o instanceof AgentClient.Exited e) {
      System.exit(e.code());
    }
    if (o instanceof AgentClient.OutputFailed f) {
      System.err.println("cairn: " + command + " failed: " + f.why());
      System.exit(1);
    }
    AgentClient.Unreachable u = (AgentClient.Unreachable) o;
    if (u.wroteOutput()) {
      System.err.println("cairn: " + command + " failed: " + u.why());
      System.exit(1);
    }
    String launcher = System.getProperty(LAUNCHER);
    if (launcher != null) {
      runByLauncher(launcher, args); // returns only if that process could not be started
    }
    if (notice) {
      System.err.println("cairn: no agent at " + socket + " (" + u.why() + "); running " + command + " in this process");
    }
  }

  /** Set by the launcher on the JVM it starts only to hand a command to an agent (C1 only, its small archive). */
  static final String LAUNCHER = "cairn.launcher";

  /**
   * No agent took the command in the JVM started to hand it over: the launcher runs it again with {@code
   * CAIRN_AGENT_ABSENT=1}, in the JVM it starts for one command without an agent (C2, its flags and archive; a store
   * took 1.7-1.8 x the time in this one), which tries the socket once more and prints the notice. This process
   * waits and exits with its code; stopped (SIGTERM, Ctrl-C), it stops that process first.
   */
  private static void runByLauncher(String launcher, String[] args) {
    List<String> command = new java.util.ArrayList<>(List.of("sh", launcher));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
    pb.environment().put(ABSENT, "1");
    Process p;
    try {
      p = pb.start();
    } catch (java.io.IOException e) {
      System.err.println("cairn: cannot start " + launcher + " (" + e.getMessage() + ")");
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (p.isAlive()) {
        p.destroy();
        try {
          p.waitFor(15, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "cairn-launcher-child"));
    int code;
    try {
      code = p.waitFor();
    } catch (InterruptedException e) {
      code = 130;
    }
    System.exit(code);
  }

  /**
   * The arguments an agent gets: {@code args}, after the client's own {@code CAIRN_KEY_DIR} and {@code CAIRN_TRACKER} as
   * {@code --key-dir} and {@code --tracker} where the arguments do not name them (the agent runs with its own
   * environment): a job's keys are in the directory it set, as when it runs the command itself, and a job pointed at
   * another tracker is refused by the agent rather than served from the agent's grid; its {@code CAIRN_LOG_LEVEL} of
   * DEBUG or finer as {@code -v}. The launcher does the same for the native thin client.
   */
  static List<String> withClientsSettings(String[] args, java.util.Map<String, String> env) {
    java.util.Map<String, String> flags = new java.util.LinkedHashMap<>();
    flags.put("--key-dir", env.get("CAIRN_KEY_DIR"));
    flags.put("--tracker", env.get("CAIRN_TRACKER"));
    List<String> out = Argv.withFlags(List.of(args), flags);
    String level = env.get("CAIRN_LOG_LEVEL");
    if (level != null && java.util.Set.of("DEBUG", "TRACE", "ALL").contains(level.strip().toUpperCase(java.util.Locale.ROOT))
        && !Argv.verboseIn(args)) {
      out.add(0, "-v"); // the job's CAIRN_LOG_LEVEL=DEBUG: that command's log on its stderr, as when it runs the command itself
    }
    return out;
  }




  /**
   * Whether an agent runs {@code command} (null: none on the command line, as in {@code cairn --version}) with these
   * arguments.
   */
  static boolean handed(String command, String[] args) {
    return command != null && Argv.HANDED.contains(command) && handable(command, args);
  }

  /** Help, version and standard input stay here (an agent cannot read this process's stdin). A loop: a lambda costs a thin start ~5 ms. */
  private static boolean handable(String command, String[] args) {
    for (String a : args) {
      if (command.equals("store") && a.equals("-") || a.equals("--help") || a.equals("-h") || a.equals("--version") || a.equals("-V")) {
        return false;
      }
    }
    return true;
  }
}
