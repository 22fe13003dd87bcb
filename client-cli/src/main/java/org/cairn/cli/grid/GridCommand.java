package org.cairn.cli.grid;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.cairn.core.config.ByteSize;
import org.cairn.core.config.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code cairn grid up|down}: a local tracker and peers as background processes in a directory. */
@Command(name = "grid", mixinStandardHelpOptions = true,
    description = {"Start (up) or stop (down) a local grid: a tracker and N peers as background processes in DIR.",
        "'up' prints the tracker URL and the token file to use with the other commands."})
public final class GridCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "up|down")
  String action;

  @Option(names = "--dir", defaultValue = "cairn-grid", description = "Where the grid keeps data, logs and grid.json (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(names = "--peers", defaultValue = "6", description = "Peers to start (default: ${DEFAULT-VALUE}).")
  int peers;

  @Option(names = "--quota", defaultValue = "2GiB", description = "Quota of each peer (default: ${DEFAULT-VALUE}).")
  String quota;

  @Option(names = "--heartbeat-interval", defaultValue = "1s", description = "Heartbeat interval (default: ${DEFAULT-VALUE}).")
  String heartbeat;

  @Option(names = "--status-page", defaultValue = "token", paramLabel = "token|public|public-apps",
      description = {"Who may see the status page: token (default) asks for the grid token; public shows anyone who "
          + "can reach the tracker a read-only summary (no app names); public-apps also shows apps, nodes and versions."})
  String statusPage;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    switch (action) {
      case "up": {
        if (peers < 1 || peers > 64) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--peers must be between 1 and 64, was " + peers);
        }
        long q;
        Duration hb;
        try {
          q = ByteSize.parse(quota);
          hb = Durations.parse(heartbeat);
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!statusPage.equals("token") && !statusPage.equals("public") && !statusPage.equals("public-apps")) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--status-page must be token, public or public-apps, was '"
              + statusPage + "'");
        }
        String running = LocalGrid.running(dir.toAbsolutePath());
        if (running != null) {
          throw new IllegalStateException("a grid is already running in " + dir + " (tracker " + running + "); stop it first with"
              + " 'cairn grid down --dir " + dir + "'");
        }
        LocalGrid grid = LocalGrid.start(dir.toAbsolutePath(), peers, q, hb, statusPage);
        out.println("tracker:    " + grid.trackerUrl());
        out.println("status:     " + grid.trackerUrl() + "/ (the status page; " + (statusPage.equals("token")
            ? "sign in with the token in " + grid.tokenFile() + "; --status-page public opens it to anyone" : "open to anyone who can reach it")
            + "; the tracker's certificate is from its own CA, whose SHA-256 the token file ends with)");
        out.println("token file: " + grid.tokenFile());
        out.println("peers:      " + grid.peers().size() + " (logs in " + grid.dir() + ")");
        out.println("try:        java -jar cairn.jar --tracker " + grid.trackerUrl() + " --token-file " + grid.tokenFile()
            + " store FILE --app A --node N");
        out.println("stop with:  java -jar cairn.jar grid down --dir " + dir);
        out.flush();
        return 0;
      }
      case "down": {
        int n = LocalGrid.down(dir.toAbsolutePath());
        out.println("stopped " + n + " processes of the grid in " + dir);
        return 0;
      }
      default:
        throw new CommandLine.ParameterException(spec.commandLine(), "use 'grid up' or 'grid down', not '" + action + "'");
    }
  }
}
