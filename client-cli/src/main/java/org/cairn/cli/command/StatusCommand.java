package org.cairn.cli.command;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.LiveCapacity;
import org.cairn.cli.context.Root;
import org.cairn.cli.output.Json;
import org.cairn.client.Grid;
import org.cairn.core.api.member.PeerView;
import org.cairn.core.api.status.AppSummary;
import org.cairn.core.api.status.DurabilityView;
import org.cairn.core.config.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn status}: a summary of the grid: peers by state, capacity, apps and versions. */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Summarise the grid: peers by state, capacity, checkpoints.")
public final class StatusCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  /** What {@code status --json} prints: live peers' capacity, peers counted by state, the catalog's size and health. */
  record Summary(String tracker, int peers, Map<String, Integer> peersByState, long donatedBytes, long usedBytes, long freeBytes,
      int apps, int nodes, int versions, DurabilityView durability) {}

  @Override
  public Integer call() throws Exception {
    try (Grid grid = GridAccess.open(root, spec.commandLine())) {
      List<PeerView> peers = grid.peerList();
      List<AppSummary> apps = grid.apps();
      DurabilityView durability = grid.durability();
      Map<String, Integer> byState = new TreeMap<>();
      for (PeerView p : peers) {
        byState.merge(p.state(), 1, Integer::sum);
      }
      LiveCapacity live = LiveCapacity.of(peers);
      long quota = live.donated();
      long used = live.used();
      long free = live.free();
      int versions = 0;
      int nodes = 0;
      for (AppSummary a : apps) {
        for (int count : a.nodes().values()) {
          versions += count;
          nodes++;
        }
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(new Summary(grid.tracker().base().toString(), peers.size(), byState, quota, used,
            free, apps.size(), nodes, versions, durability)));
      } else {
        out.println("tracker   " + grid.tracker().base());
        StringBuilder states = new StringBuilder();
        byState.forEach((state, n) -> states.append(states.length() == 0 ? "" : ", ").append(n).append(' ').append(state));
        out.println("peers     " + peers.size() + (peers.isEmpty() ? "" : " (" + states + ")"));
        out.println("capacity  " + ByteSize.format(quota) + " donated by live peers, " + ByteSize.format(used) + " used, "
            + ByteSize.format(free) + " free");
        out.println("stored    " + plural(versions, "version") + " of " + plural(nodes, "node") + " in " + plural(apps.size(), "app"));
        out.println("health    " + durability.healthy() + " chunks healthy, " + durability.degraded() + " degraded, " + durability.lost()
            + " lost; repair: " + durability.repairQueue() + " queued, " + durability.repairing() + " running");
        if (durability.stalled() != null) {
          for (DurabilityView.Stalled s : durability.stalled()) {
            out.println("stalled   " + plural(s.chunks(), "chunk") + ": " + s.reason());
          }
        }
      }
      out.flush();
    }
    return 0;
  }

  static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
