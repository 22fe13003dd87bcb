package org.cairn.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
    },
    subcommands = {StoreCommand.class, FetchCommand.class, VersionsCommand.class, LsCommand.class, RmCommand.class,
        StatusCommand.class, VerifyCommand.class, HeartbeatCommand.class, PolicyCommand.class, KeyCommand.class, GridCommand.class, DemoCommand.class, BenchmarkCommand.class, CommandLine.HelpCommand.class})
public final class CairnCli {

  @Option(names = "--tracker", paramLabel = "URL", scope = CommandLine.ScopeType.INHERIT,
      description = "Tracker URL, e.g. http://127.0.0.1:7600 (env CAIRN_TRACKER).")
  String tracker;

  @Option(names = "--token-file", paramLabel = "FILE", scope = CommandLine.ScopeType.INHERIT,
      description = "File holding the grid token (env CAIRN_TOKEN holds the token itself).")
  java.nio.file.Path tokenFile;

  @Option(names = "--key-dir", paramLabel = "DIR", scope = CommandLine.ScopeType.INHERIT,
      description = "Directory of the app keys (env CAIRN_KEY_DIR; default ~/.config/cairn/keys).")
  java.nio.file.Path keyDir;

  /** The app keys this command uses. */
  org.cairn.client.AppKeys keys() {
    return org.cairn.client.AppKeys.locate(keyDir);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (for tests and embedding). */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  /** The command line with cairn's error handling: a failed operation is one line on stderr and exit 1. */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new CairnCli());
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("cairn: " + cmd.getCommandName() + " failed: " + message(e));
      return 1;
    });
    return cli;
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
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
