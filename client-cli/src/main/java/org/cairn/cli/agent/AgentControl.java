package org.cairn.cli.agent;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.cairn.cli.agent.wire.AgentClient;
import org.cairn.cli.context.Root;
import org.cairn.cli.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn agent stop} and {@code cairn agent status}: asked of the agent at this user's socket. */
final class AgentControl {
  private AgentControl() {}

  /** {@code --socket} of stop and status. */
  static final class SocketOption {
    @Option(names = "--socket", paramLabel = "PATH", description = "The agent's socket (default: as 'cairn agent').")
    Path flag;

    /** --socket, else --agent or CAIRN_AGENT_SOCKET, else the default one ({@link AgentCommand#defaultSocket}). */
    Path resolve(Root root) {
      return flag != null ? flag.toAbsolutePath() : ofRoot(root);
    }

    /** --agent or CAIRN_AGENT_SOCKET, else the default one. */
    static Path ofRoot(Root root) {
      return org.cairn.cli.agent.wire.AgentSocket.resolve(root.agentSocket(), System.getenv());
    }
  }

  /** Sends {@code args} to the agent at {@code socket}; its answer goes to this process's output. Null: no agent answered. */
  static Integer ask(Path socket, List<String> args) {
    AgentClient.Outcome o = AgentClient.run(socket, args, false);
    if (o instanceof AgentClient.Exited e) {
      return e.code();
    }
    if (o instanceof AgentClient.OutputFailed f) {
      System.err.println("cairn agent: " + f.why());
      return 1;
    }
    return null;
  }

  @Command(name = "stop", mixinStandardHelpOptions = true,
      description = {"Stop the agent at this user's socket: it takes no new command, gives running ones 10 s, and leaves "
          + "queued background stores spooled for its next start. Exit 0 also when none runs."})
  static final class Stop implements Callable<Integer> {
    @CommandLine.ParentCommand
    AgentCommand agent;

    @CommandLine.Mixin
    SocketOption socket;

    @Override
    public Integer call() {
      Path s = socket.resolve(agent.root);
      Integer code = ask(s, List.of("agent", "stop"));
      java.util.Optional<ProcessHandle> starting = code == null ? AgentLock.holder(s) : java.util.Optional.empty();
      if (starting.isPresent()) {
        // still warming up before it opens its socket: its lock names it (a file in this user's 0700 directory)
        starting.get().destroy();
        agent.spec.commandLine().getOut().println("stopping the agent (pid " + starting.get().pid() + ", still starting)");
        agent.spec.commandLine().getOut().flush();
        return 0;
      }
      if (code == null) {
        agent.spec.commandLine().getOut().println("no agent running at " + s);
        agent.spec.commandLine().getOut().flush();
        return 0;
      }
      return code;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = {"Say whether an agent runs at this user's socket: since when, what it has served, which grids it has "
          + "open, when it exits. Exit 0 when one runs (or is starting), 3 when none does."})
  static final class Status implements Callable<Integer> {
    @CommandLine.ParentCommand
    AgentCommand agent;

    @CommandLine.Mixin
    SocketOption socket;

    @Option(names = "--json", description = "One JSON object: running, pid, socket, since, served, running, background, grids, "
        + "commandsRunning, watching, idleSeconds, idleExitSeconds, jar, heapUsedBytes; {\"running\": true, \"starting\": true, \"pid\": N} while it warms up before opening its socket; {\"running\": false} when none runs.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      Path s = socket.resolve(agent.root);
      Integer code = ask(s, json ? List.of("agent", "status", "--json") : List.of("agent", "status"));
      if (code != null) {
        return code;
      }
      java.io.PrintWriter out = agent.spec.commandLine().getOut();
      java.util.Optional<ProcessHandle> starting = AgentLock.holder(s);
      if (starting.isPresent()) {
        long pid = starting.get().pid();
        out.println(json ? Json.MAPPER.writeValueAsString(java.util.Map.of("running", true, "starting", true, "pid", pid, "socket", s.toString()))
            : "agent starting (pid " + pid + ", warming up before it opens " + s + ")");
        out.flush();
        return 0;
      }
      out.println(json ? Json.MAPPER.writeValueAsString(java.util.Map.of("running", false, "socket", s.toString())) : "no agent running at " + s);
      out.flush();
      return 3;
    }
  }

  @Command(name = "notify-checkpoint", mixinStandardHelpOptions = true,
      description = {"Tell the jobs that watch this user's agent ('cairn dmtcp launch' does) to checkpoint now: each stores a "
          + "committed checkpoint in the grid, as on SIGUSR1. The donor app sends this when its owner comes back. At most one "
          + "notice goes out per 60 s; one sooner is not sent (exit 0, said). Exit 3 when no agent runs."})
  static final class NotifyCheckpoint implements Callable<Integer> {
    @CommandLine.ParentCommand
    AgentCommand agent;

    @CommandLine.Mixin
    SocketOption socket;

    @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "asked by 'cairn agent notify-checkpoint'",
        description = "Why, in the agent's log and the jobs' output (one line, at most 200 characters; default: ${DEFAULT-VALUE}).")
    String reason;

    @Option(names = "--json", description = "One JSON object: sent, seq, told (the jobs it reached), dropped (jobs gone, taken off the "
        + "list), nextInSeconds (when not sent: how long until one may go); {\"running\": false} when no agent runs.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      Path s = socket.resolve(agent.root);
      String why = org.cairn.cli.agent.wire.CheckpointNotice.shortened(reason);
      List<String> args = json ? List.of("agent", "notify-checkpoint", "--reason", why, "--json")
          : List.of("agent", "notify-checkpoint", "--reason", why);
      Integer code = ask(s, args);
      if (code != null) {
        return code;
      }
      java.io.PrintWriter out = agent.spec.commandLine().getOut();
      out.println(json ? Json.MAPPER.writeValueAsString(java.util.Map.of("running", false, "socket", s.toString()))
          : "no agent running at " + s + ": no job watches for notices");
      out.flush();
      return 3;
    }
  }
}
