package org.cairn.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.cairn.cli.agent.AgentCommand;
import org.cairn.cli.agent.wire.Argv;
import org.cairn.cli.command.AdviseCommand;
import org.cairn.cli.command.FetchCommand;
import org.cairn.cli.command.KeyCommand;
import org.cairn.cli.command.LsCommand;
import org.cairn.cli.command.MountCommand;
import org.cairn.cli.command.PolicyCommand;
import org.cairn.cli.command.PrefetchCommand;
import org.cairn.cli.command.RmCommand;
import org.cairn.cli.command.StatusCommand;
import org.cairn.cli.command.StoreCommand;
import org.cairn.cli.command.VerifyCommand;
import org.cairn.cli.command.VersionsCommand;
import org.cairn.cli.command.WaitCommand;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Session;
import org.cairn.cli.criu.CriuCommand;
import org.cairn.cli.dmtcp.DmtcpCommand;
import org.cairn.cli.grid.DemoCommand;
import org.cairn.cli.grid.GridCommand;
import org.cairn.cli.grid.HeartbeatCommand;
import org.cairn.cli.output.ErrorLines;
import org.cairn.cli.output.RequestLog;
import org.cairn.cli.output.StandardOutput;
import org.cairn.cli.podman.PodmanCommand;
import org.cairn.cli.startup.LogSetup;
import org.cairn.cli.startup.Preload;
import org.cairn.cli.startup.QuietExit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code java -jar cairn.jar}: the client of a Cairn grid. Exit codes: 0 success, 1 the operation
 * failed (message on stderr), 2 bad usage.
 */
@Command(
    name = "cairn",
    mixinStandardHelpOptions = true,
    versionProvider = CairnCli.Version.class,
    description = {
        "Cairn stores checkpoints of long-running jobs on the spare disks of a desktop grid.",
        "",
        "Exit codes: 0 success, 1 operation failed, 2 usage error."
    })
public final class CairnCli implements Root {
  /**
   * The commands, in the order the help lists them. They are added to the command line when it is
   * built, and only the one named when a command line names one: picocli builds a command's model
   * by reflection, and building all of them was a third of a one-shot command's CPU.
   */
  static final java.util.List<Class<?>> COMMANDS = java.util.List.of(StoreCommand.class, FetchCommand.class,
      VersionsCommand.class, LsCommand.class, RmCommand.class, StatusCommand.class, VerifyCommand.class, WaitCommand.class,
      PrefetchCommand.class, MountCommand.class, AgentCommand.class, HeartbeatCommand.class, PolicyCommand.class,
      AdviseCommand.class, KeyCommand.class, DmtcpCommand.class, CriuCommand.class,
      PodmanCommand.class, GridCommand.class, DemoCommand.class, BenchmarkCommand.class,
      CommandLine.HelpCommand.class);

  @Option(names = "--tracker", paramLabel = "URL[,URL...]", scope = CommandLine.ScopeType.INHERIT,
      description = {"Tracker URL, e.g. http://127.0.0.1:7600 (env CAIRN_TRACKER); for a tracker group, its members' URLs "
          + "separated by commas (calls go to the next when one cannot be reached)."})
  String tracker;

  @Option(names = "--token-file", paramLabel = "FILE", scope = CommandLine.ScopeType.INHERIT,
      description = "File holding the grid token (env CAIRN_TOKEN_FILE; CAIRN_TOKEN holds the token itself).")
  java.nio.file.Path tokenFile;

  @Option(names = "--key-dir", paramLabel = "DIR", scope = CommandLine.ScopeType.INHERIT,
      description = "Directory of the app keys (env CAIRN_KEY_DIR; default ~/.config/cairn/keys).")
  java.nio.file.Path keyDir;

  @Option(names = "--agent", paramLabel = "SOCKET", scope = CommandLine.ScopeType.INHERIT,
      description = {"Hand store, fetch, verify, versions, wait and prefetch to the 'cairn agent' on this Unix socket "
          + "(env CAIRN_AGENT_SOCKET); without a reachable agent they run in this process."})
  java.nio.file.Path agent;

  @Option(names = "--no-agent", scope = CommandLine.ScopeType.INHERIT,
      description = {"Run the command in this process and start no agent (as CAIRN_AGENT=off); without it, store, fetch, "
          + "verify, versions, wait and prefetch use this user's agent when one runs and start one when none does."})
  boolean noAgent;

  @Option(names = {"-q", "--quiet"}, scope = CommandLine.ScopeType.INHERIT,
      description = "No progress display on stderr (results and errors are still printed).")
  boolean quiet;

  @Option(names = {"-v", "--verbose"}, scope = CommandLine.ScopeType.INHERIT,
      description = "Log what the command does on stderr (as CAIRN_LOG_LEVEL=DEBUG).")
  void verbose(boolean on) {
    if (!on) {
      return;
    }
    if (session.agent()) {
      // a command an agent runs: its lines go to the client that asked, the agent's own levels stay
      if (requestLog != null) {
        requestLog.verbose();
      } else {
        requestLog = RequestLog.begin(session.stderr(), true);
      }
      return;
    }
    if (levelFromArguments) {
      return; // main() set CAIRN_LOG_LEVEL before logging started; asking for a logger here, while Preload's thread starts
      // logging, had the JDK's and Netty's first log calls queued and SLF4J warn on stderr that it replayed them
    }
    // a command line run where logging had started already (tests, embedding)
    org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    if (root instanceof ch.qos.logback.classic.Logger l) {
      l.setLevel(ch.qos.logback.classic.Level.DEBUG);
    }
  }

  /** The log of this command for a client of an agent (null otherwise); closed when it ends. */
  private RequestLog requestLog;
  /** Whether main() found -v and set the level before logging started. */
  private boolean levelFromArguments;

  /** Where this command runs: this process, or an agent for a thin client. */
  Session session = Session.local();

  @Override
  public String tracker() {
    return tracker;
  }

  @Override
  public java.nio.file.Path tokenFile() {
    return tokenFile;
  }

  @Override
  public java.nio.file.Path keyDir() {
    return keyDir;
  }

  @Override
  public java.nio.file.Path agentSocket() {
    return agent;
  }

  @Override
  public boolean quiet() {
    return quiet;
  }

  @Override
  public Session session() {
    return session;
  }

  @Override
  public int runCommand(Session in, String... args) {
    return run(in, args);
  }

  @Override
  public org.cairn.client.keys.AppKeys keys() {
    java.nio.file.Path dir = session.path(keyDir);
    String env = session.env("CAIRN_KEY_DIR");
    if (dir == null && env != null && !env.isBlank()) {
      dir = session.path(java.nio.file.Path.of(env)); // the client's, when an agent runs the command
    } else if (dir == null && session.agent()) {
      dir = org.cairn.client.keys.AppKeys.defaultDir(); // not the agent's own CAIRN_KEY_DIR: the client set none
    }
    return org.cairn.client.keys.AppKeys.locate(dir);
  }

  public static void main(String[] args) {
    main(args, null);
  }

  /** As {@link #main(String[])}; {@code after} gets the exit code once the command has ended, before the process exits. */
  static void main(String[] args, java.util.function.IntConsumer after) {
    // Ctrl-C (SIGINT) or SIGTERM while a command runs: say so in one line; the JVM exits 130 (143)
    java.util.concurrent.atomic.AtomicBoolean finished = new java.util.concurrent.atomic.AtomicBoolean();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (!finished.get()) {
        System.err.println("cairn: interrupted");
        System.err.flush();
      }
    }, "cairn-interrupted"));
    boolean verbose = LogSetup.debugIfVerbose(args);
    Preload.start(Argv.commandOf(args), args);
    int code = run(verbose, true, args);
    finished.set(true);
    if (after != null) {
      after.accept(code);
    }
    QuietExit.exit(code);
  }

  /** Runs the command line and returns the exit code (for tests and embedding). */
  public static int run(String... args) {
    return run(false, false, args);
  }

  /**
   * As {@link #run(String...)}; {@code levelFromArguments}: main() set the log level from -v before logging started;
   * {@code processStdout}: the command's text goes to this process's standard output as its data does, so a write that
   * failed is known (below), instead of through {@code System.out} (which tests and embedders may have replaced).
   */
  private static int run(boolean levelFromArguments, boolean processStdout, String... args) {
    Session session = Session.local();
    CommandLine cli = commandLine(session, args);
    ((CairnCli) cli.getCommand()).levelFromArguments = levelFromArguments;
    java.io.PrintWriter out = null;
    if (processStdout) {
      out = new java.io.PrintWriter(new java.io.OutputStreamWriter(session.stdout(), StandardOutput.charset()), true);
      cli.setOut(out);
    }
    int code = cli.execute(globalJson(cli, args));
    if (out != null) {
      out.flush();
    }
    return StandardOutput.exitCode(session.stdout(), code, Argv.commandOf(args), cli.getErr());
  }

  /** Runs the command line in {@code session} (an agent serving a thin client), its output on the session's streams. */
  public static int run(Session session, String... args) {
    CommandLine cli = commandLine(session, args);
    java.io.PrintWriter out = new java.io.PrintWriter(new java.io.OutputStreamWriter(session.stdout(), java.nio.charset.StandardCharsets.UTF_8), true);
    java.io.PrintWriter err = new java.io.PrintWriter(new java.io.OutputStreamWriter(session.stderr(), java.nio.charset.StandardCharsets.UTF_8), true);
    cli.setOut(out);
    cli.setErr(err);
    // the command's warnings reach its client, as they would in the client's own process (-v: its DEBUG lines too)
    ((CairnCli) cli.getCommand()).requestLog = RequestLog.begin(session.stderr(), false);
    try {
      return cli.execute(globalJson(cli, args));
    } finally {
      RequestLog log = ((CairnCli) cli.getCommand()).requestLog;
      if (log != null) {
        log.close();
      }
      out.flush();
      err.flush();
    }
  }

  /**
   * {@code cairn --json CMD ...} means {@code cairn CMD --json ...}: {@code --json} given before the
   * command moves after it (every command that prints a result has its own {@code --json}).
   */
  static String[] globalJson(CommandLine cli, String[] args) {
    java.util.List<String> out = new java.util.ArrayList<>(java.util.Arrays.asList(args));
    int json = -1;
    int last = -1;
    CommandLine at = cli;
    for (int i = 0; i < out.size(); i++) {
      String a = out.get(i);
      if (a.equals("--json") && json < 0 && last < 0) {
        json = i;
      } else if (at.getSubcommands().containsKey(a)) {
        at = at.getSubcommands().get(a);
        last = i;
      } else if (last >= 0) {
        break;
      }
    }
    if (json >= 0 && last > json) {
      out.remove(json);
      out.add(last, "--json"); // after the (sub)command's name, which moved one to the left
    }
    return out.toArray(String[]::new);
  }

  /**
   * The command line with cairn's error handling: a failed operation is one line on stderr and exit
   * 1; a usage error is one line and a hint (never the whole help) and exit 2.
   */
  public static CommandLine commandLine() {
    return commandLine(Session.local());
  }

  public static CommandLine commandLine(Session session) {
    return commandLine(session, null);
  }

  /** The command line for {@code args}: with only the command they name, or every command when they name none (help, typos). */
  public static CommandLine commandLine(Session session, String[] given) {
    CairnCli root = new CairnCli();
    root.session = session;
    CommandLine cli = new CommandLine(root);
    Class<?> named = given == null ? null : named(given);
    for (Class<?> c : COMMANDS) {
      if (named == null || c == named) {
        // before the handlers below, which apply to the subcommands present; benchmark: the bench module's, when named
        cli.addSubcommand(c == BenchmarkCommand.class ? BenchmarkCommand.command(given) : c);
      }
    }
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("cairn: " + cmd.getCommandName() + " failed: " + ErrorLines.message(e));
      return 1;
    });
    cli.setParameterExceptionHandler((ex, args) -> {
      CommandLine cmd = ex.getCommandLine();
      java.io.PrintWriter err = cmd.getErr();
      String where = cmd == cli ? "cairn" : "cairn " + cmd.getCommandName();
      String line = where + ": " + ex.getMessage();
      String unknown = ErrorLines.unknownOption(cmd, args);
      if (unknown != null) {
        line = unknown; // a mistyped option explains the missing one
      } else if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
        line += " (did you mean " + String.join(" or ", u.getSuggestions()) + "?)";
      }
      err.println(line);
      err.println("Try '" + where + " --help' for more information.");
      return 2;
    });
    return cli;
  }

  /** The command {@code args} name (the first argument that is not the root's option or its value), or null for help. */
  private static Class<?> named(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (Argv.VALUED.contains(a)) {
        i++; // its value
      } else if (!a.startsWith("-")) {
        for (Class<?> c : COMMANDS) {
          Command command = c.getAnnotation(Command.class);
          if (c != CommandLine.HelpCommand.class && (command.name().equals(a) || java.util.Arrays.asList(command.aliases()).contains(a))) {
            return c;
          }
        }
        return null; // not a command's name: picocli says so, with suggestions from every command
      }
    }
    return null;
  }

  /** Reads the version Maven filtered into the jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties p = new Properties();
      try (InputStream in = CairnCli.class.getResourceAsStream("/cairn-version.properties")) {
        if (in != null) {
          p.load(in);
        }
      }
      return new String[] {"cairn " + p.getProperty("version", "unknown"),
          "Java " + System.getProperty("java.version") + " on " + System.getProperty("os.name") + " " + System.getProperty("os.arch")};
    }
  }
}
