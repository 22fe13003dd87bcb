package org.cairn.cli.condor;

import java.io.PrintStream;

/**
 * The clean-up plug-in: {@code condor_manifest} runs it on the access point once for each file of each checkpoint a
 * job that left the queue wrote, with the map file's arguments and then {@code -from BASE -delete FILE -jobad AD
 * [-ignore-missing-files]} (the manual says {@code -file}; both are taken), BASE being {@code
 * checkpoint_destination/GLOBALJOBID/NNNN}. It deletes the version {@code BASE/FILE} names, and the checkpoint's
 * MANIFEST version with it ({@code condor_manifest} never names that one). A version that is already gone is success:
 * what clean-up must leave true is that the file is not there (HTCondor's own clean-up script does the same). Exit 0
 * on success, 1 with one line on standard output (which {@code condor_manifest} reports) otherwise.
 */
final class Cleanup {
  private final CommandRunner runner;
  private final GridFlags grid;
  private final PrintStream out;

  Cleanup(CommandRunner runner, GridFlags grid, PrintStream out) {
    this.runner = runner;
    this.grid = grid;
    this.out = out;
  }

  int run(String from, String file) {
    String base = from.endsWith("/") ? from : from + "/";
    CairnUrl url;
    CairnUrl manifest;
    try {
      url = CairnUrl.parse(base + (file.startsWith("/") ? file.substring(1) : file));
      if (!url.checkpoint()) {
        out.println("cairn_plugin: " + from + " is not in HTCondor's checkpoint layout (.../GLOBALJOBID/NNNN); nothing deleted");
        return 1;
      }
      manifest = CairnUrl.parse(base + CairnUrl.MANIFEST + "." + base.replaceAll("^.*/([0-9]+)/$", "$1"));
    } catch (CairnUrl.BadUrl e) {
      out.println("cairn_plugin: " + e.getMessage());
      return 1;
    }
    int code = delete(url);
    if (code == 0 && manifest.checkpoint() && !manifest.node().equals(url.node())) {
      code = delete(manifest);
    }
    return code;
  }

  /** Deletes {@code url}'s version; 0 when it is gone (deleted now or before). */
  private int delete(CairnUrl url) {
    CommandRunner.Result r = runner.run(Transfers.command(grid, "rm", url));
    if (r.code() == 0) {
      out.println("deleted " + url.version());
      return 0;
    }
    Failure f = Failure.of(r);
    if (f.kind() == Failure.Kind.SPECIFICATION) {
      out.println(url.version() + " was already gone");
      return 0;
    }
    out.println("cairn_plugin: cannot delete " + url.version() + ": " + f.message());
    return 1;
  }
}
