package org.cairn.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.cli.context.GridAccess;
import org.cairn.cli.context.Root;
import org.cairn.cli.context.Target;
import org.cairn.cli.output.Json;
import org.cairn.client.Grid;
import org.cairn.client.fetch.Verifier;
import org.cairn.core.api.status.AppSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn verify}: is a version restorable? Exit 0 when every chunk has m good pieces, 1 when not. */
@Command(name = "verify", header = "Check that a version can be restored: every chunk has m good pieces.", mixinStandardHelpOptions = true,
    description = {"Check that every chunk of a version (the latest unless --step; every node's unless --node; every app's unless "
        + "--app) has at least m pieces on its holders: live ones, then those the tracker lists DOWN for chunks that need them. "
        + "With --read-data every piece is read, verified and decoded (like restic check --read-data); bad pieces are reported "
        + "to the tracker for repair.",
        "Exit codes: 0 restorable, 1 not restorable or the check failed, 2 usage error."})
public final class VerifyCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  Root root;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--app", paramLabel = "APP", description = "Application to check (default: every app on the grid).")
  String app;

  @Option(names = "--node", paramLabel = "NODE", description = "Node to check (default: every node of the app).")
  String node;

  @CommandLine.Mixin
  Target.Step stepOption;

  @Option(names = "--read-data", description = "Read and decode every piece instead of asking the holders whether they have it.")
  boolean readData;

  @Option(names = "--threads", description = "Chunks checked at once with --read-data (default: cores).")
  Integer threads;

  @Option(names = "--json", description = "Print a JSON array with one report per version.")
  boolean json;

  /** Notes already printed: one line per distinct reason, however many versions share it. */
  private final java.util.Set<String> notes = new java.util.HashSet<>();

  /**
   * The app key when it is here and is the version's; otherwise encrypted chunks are checked without
   * it (pieces decoded and re-coded, as repair does; the plaintext is not opened), with a note saying why.
   */
  private org.cairn.core.crypto.ChunkCrypto cryptoFor(org.cairn.core.manifest.Manifest m) {
    try {
      return root.keys().forVersion(m);
    } catch (java.io.IOException | IllegalArgumentException e) {
      if (readData && notes.add(e.getMessage())) {
        spec.commandLine().getErr().println("note: " + e.getMessage() + "; checking its encrypted pieces without opening them");
      }
      return org.cairn.core.crypto.ChunkCrypto.PLAIN;
    }
  }

  /**
   * One version in {@code verify --json}'s list; {@code part} (which part of a checkpoint set the version is) is left
   * out for a plain version.
   */
  public record Verified(String app, String node, long step, @com.fasterxml.jackson.annotation.JsonInclude(
      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Integer part, String redundancy, boolean restorable,
      int chunks, int healthy, int degraded, int lost, long piecesChecked, long piecesBad, boolean readData, List<String> problems) {}

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    long step = stepOption.step;
    if (step > 0 && node == null) {
      throw new CommandLine.ParameterException(cl, "--step needs --node");
    }
    if (node != null && app == null) {
      throw new CommandLine.ParameterException(cl, "--node needs --app");
    }
    PrintWriter out = cl.getOut();
    List<Verifier.Report> reports = new ArrayList<>();
    List<Integer> parts = new ArrayList<>(); // the part of a checkpoint set each report is, null for a plain version
    try (Grid grid = GridAccess.open(root, cl)) {
      List<String[]> nodes = new ArrayList<>(); // app, node
      if (node != null) {
        nodes.add(new String[] {app, node});
      } else {
        for (AppSummary a : grid.apps()) {
          if (app == null || a.app().equals(app)) {
            a.nodes().keySet().forEach(n -> nodes.add(new String[] {a.app(), n}));
          }
        }
        if (nodes.isEmpty() && app != null) {
          throw new IllegalStateException("app " + app + " has no versions");
        }
      }
      if (nodes.isEmpty()) {
        cl.getErr().println("cairn verify: the grid holds no versions yet; nothing to check");
      }
      int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
      for (String[] an : nodes) {
        for (org.cairn.core.api.catalog.LocatedVersion located : grid.locateParts(an[0], an[1], step)) {
          reports.add(grid.verify(located, readData, t, cryptoFor(located.manifest())));
          parts.add(located.manifest().set() == null ? null : located.manifest().set().part());
        }
      }
    }
    boolean ok = reports.stream().allMatch(Verifier.Report::restorable);
    if (json) {
      List<Verified> list = new ArrayList<>();
      for (int i = 0; i < reports.size(); i++) {
        Verifier.Report r = reports.get(i);
        list.add(new Verified(r.app(), r.node(), r.step(), parts.get(i), r.redundancy(), r.restorable(), r.chunks(), r.healthy(),
            r.degraded(), r.lost(), r.piecesChecked(), r.piecesBad(), readData, r.problems()));
      }
      out.println(Json.MAPPER.writeValueAsString(list));
    } else {
      for (int i = 0; i < reports.size(); i++) {
        Verifier.Report r = reports.get(i);
        out.printf(Locale.ROOT, "%s.%s.%d%s (%s): %s — %d chunks: %d healthy, %d degraded, %d lost; %d pieces %s, %d bad%n",
            r.app(), r.node(), r.step(), parts.get(i) == null ? "" : " part " + parts.get(i), r.redundancy(), r.restorable() ? "restorable" : "NOT RESTORABLE", r.chunks(), r.healthy(),
            r.degraded(), r.lost(), r.piecesChecked(), readData ? "read" : "asked", r.piecesBad());
        for (String p : r.problems()) {
          out.println("  " + p);
        }
      }
    }
    out.flush();
    if (!ok) {
      cl.getErr().println("cairn: verify: " + reports.stream().filter(r -> !r.restorable())
          .map(r -> r.app() + "." + r.node() + "." + r.step() + " has " + r.lost() + " chunks with fewer than m good pieces")
          .reduce((a, b) -> a + "; " + b).orElse("") + " (bring their holders back, or restore from an older step)");
      cl.getErr().flush();
      return 1;
    }
    return 0;
  }
}
