package org.cairn.cli.command;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.client.advise.Advice;
import org.cairn.client.advise.Advisor;
import org.cairn.client.advise.CheckpointCosts;
import org.cairn.core.config.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn advise}: how often a node of an app should checkpoint on this compute host. */
@Command(name = "advise", mixinStandardHelpOptions = true, header = "Say how often a job should checkpoint on this host.",
    description = {"Estimate this compute host's mean time to interruption from its availability history on the tracker "
        + "(its heartbeats: 'cairn agent' or 'cairn heartbeat'), what a checkpoint of APP/NODE costs the job from its recent "
        + "stores on this host (with --async: until the agent holds the image; under 'cairn dmtcp --interval auto': DMTCP's "
        + "checkpoint), and print the interval that loses the least work: Young's sqrt(2 C M), or Daly's higher-order form "
        + "once C is not small against M. Without history or stores it assumes M = 4h and C = 10s and says so (confidence none)."})
public final class AdviseCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  Target.App target;

  @CommandLine.Mixin
  Target.Node nodeOption;

  @Option(names = "--client", paramLabel = "ID", description = "The compute host whose history counts (default: this host, as stores name it).")
  String client;

  @Option(names = "--window", paramLabel = "DURATION",
      description = "How much availability history to look at (default: " + Advisor.DEFAULT_WINDOW + ", or the million slots a "
          + "tracker serves if that is less).")
  String window;

  @Option(names = "--checkpoint-cost", paramLabel = "DURATION",
      description = "What a checkpoint costs the job, when you know it better than its recent stores do (e.g. 30s).")
  String checkpointCost;

  @Option(names = "--json", description = "Print one JSON object: intervalSeconds, mtbfSeconds, checkpointSeconds, the confidence, ...")
  boolean json;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    Duration given = checkpointCost == null ? null : duration(cl, "--checkpoint-cost", checkpointCost);
    if (given != null && !(given.toMillis() > 0)) {
      throw new CommandLine.ParameterException(cl, "--checkpoint-cost must be positive, was " + checkpointCost);
    }
    if (window != null) {
      duration(cl, "--window", window);
    }
    String host = client != null ? client : StoreCommand.clientId(root.session());
    try (org.cairn.client.Grid grid = GridAccess.open(root, cl)) {
      Advice a = new Advisor(grid.tracker(), CheckpointCosts.local()).advise(target.app, nodeOption.node, host, window, given);
      print(cl.getOut(), a, json);
    }
    return 0;
  }

  private static Duration duration(CommandLine cl, String flag, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, flag + ": " + e.getMessage());
    }
  }

  /** The advice as JSON, or as a few lines. */
  static void print(PrintWriter out, Advice a, boolean json) throws java.io.IOException {
    if (json) {
      out.println(Json.MAPPER.writeValueAsString(a));
      out.flush();
      return;
    }
    out.printf(Locale.ROOT, "checkpoint %s.%s on %s every %s (%s's formula; confidence %s)%n", a.app(), a.node(), a.client(),
        human(a.intervalSeconds()), a.formula().equals("young") ? "Young" : "Daly", a.confidence());
    String range = a.mtbfLowSeconds() == null ? "" : a.mtbfHighSeconds() == null
        ? String.format(Locale.ROOT, ", at least %s at 90%%", human(a.mtbfLowSeconds()))
        : String.format(Locale.ROOT, ", 90%% interval %s - %s", human(a.mtbfLowSeconds()), human(a.mtbfHighSeconds()));
    out.printf(Locale.ROOT, "  mean time to interruption: %s (%s: %d interruptions in %s up over the last %s%s; confidence %s)%n",
        human(a.mtbfSeconds()), a.mtbfSource(), a.interruptions(), human(a.upSeconds()), human(a.windowSeconds()), range,
        a.mtbfConfidence());
    String samples = a.checkpointSamples() == 0 ? a.checkpointSource()
        : String.format(Locale.ROOT, "median of %d recent checkpoints, %s - %s", a.checkpointSamples(), human(a.checkpointMinSeconds()),
            human(a.checkpointMaxSeconds()));
    out.printf(Locale.ROOT, "  checkpoint cost to the job: %s (%s; confidence %s)%n", human(a.checkpointSeconds()), samples,
        a.checkpointConfidence());
    out.flush();
  }

  /** Seconds as 42s, 9m 30s, 3h 20m, 2d 4h. */
  static String human(double seconds) {
    long s = Math.round(seconds);
    if (seconds < 10 && seconds != s) {
      return String.format(Locale.ROOT, "%.1fs", seconds);
    }
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return s / 60 + "m" + (s % 60 == 0 ? "" : " " + s % 60 + "s");
    }
    if (s < 86_400) {
      return s / 3600 + "h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + "m");
    }
    return s / 86_400 + "d" + (s % 86_400 / 3600 == 0 ? "" : " " + s % 86_400 / 3600 + "h");
  }
}
