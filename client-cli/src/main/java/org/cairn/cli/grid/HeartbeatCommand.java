package org.cairn.cli.grid;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cairn.cli.command.StoreCommand;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.core.config.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code cairn heartbeat}: tells the tracker this compute host's job is running (FALCON's compute
 * host availability, which CRLS correlates donors with). Run it beside the job; it sends UP every
 * interval until stopped, then DOWN.
 */
@Command(name = "heartbeat", header = "Report this compute host's job as UP to the tracker until stopped.", mixinStandardHelpOptions = true,
    description = {"Report this compute host's job as running (UP) to the tracker until stopped (then DOWN), so placement "
        + "can prefer donors that are up when this host's job restarts (FALCON's CRLS). Run it beside the job:",
        "  cairn heartbeat --client $(hostname) & JOB; kill %%1"})
public final class HeartbeatCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--client", description = "Compute host id (default: this host's name, as stores use).")
  String client;

  @Option(names = "--interval", defaultValue = "5s", description = "Heartbeat interval (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(names = "--once", description = "Send one heartbeat and exit.")
  boolean once;

  @Option(names = "--down", description = "Report the job stopped (DOWN) and exit.")
  boolean down;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    Duration every;
    try {
      every = Durations.parse(interval);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    String id = client != null ? client : StoreCommand.clientId();
    PrintWriter out = cl.getOut();
    try (org.cairn.client.Grid grid = GridAccess.open(root, cl)) {
      if (down || once) {
        grid.tracker().computeHeartbeat(id, !down);
        out.println("compute host " + id + " reported " + (down ? "DOWN" : "UP"));
        out.flush();
        return 0;
      }
      CountDownLatch stop = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        stop.countDown();
        try {
          grid.tracker().computeHeartbeat(id, false);
        } catch (java.io.IOException e) {
          // the tracker times the host out instead
        }
      }, "heartbeat-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      out.println("reporting compute host " + id + " UP every " + every.toMillis() + " ms; stop with Ctrl-C or SIGTERM");
      out.flush();
      boolean reachable = true;
      do {
        try {
          Long told = grid.tracker().computeHeartbeat(id, true).intervalMillis();
          if (told != null && told > 0 && told < every.toMillis()) {
            every = Duration.ofMillis(told); // the tracker times out hosts that report less often
          }
          reachable = true;
        } catch (java.io.IOException e) {
          if (reachable) {
            cl.getErr().println("cairn heartbeat: tracker unreachable (" + e.getMessage() + "); retrying");
            cl.getErr().flush();
          }
          reachable = false;
        }
      } while (!stop.await(every.toMillis(), TimeUnit.MILLISECONDS));
    }
    return 0;
  }
}
