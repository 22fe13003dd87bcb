package org.cairn.tracker;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.core.config.Durations;
import org.cairn.tracker.recovery.Recovery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code cairn-tracker recover --from-peers ADDR,... --kit DIR --data DIR}: a catalog rebuilt from the peers. */
@Command(name = "recover", mixinStandardHelpOptions = true,
    description = {"Rebuild a tracker's data directory from the catalog records the peers hold: for when every tracker disk "
        + "is gone. Needs the grid's keys from a kit (any tracker backup, or a copy of a data directory; only its "
        + "keys and tokens are read) and the peers' data addresses. Then start the tracker with --data on the result; "
        + "the peers register again by themselves."})
final class RecoverCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--from-peers", required = true, paramLabel = "HOST:PORT,...",
      description = "The peers' data-plane addresses (as their status lines and the status page showed them).")
  String peers;

  @Option(names = "--kit", required = true, paramLabel = "DIR",
      description = "A tracker backup or data directory holding catalog.key, ticket.key, dataplane.key and tokens/.")
  Path kit;

  @Option(names = "--data", required = true, paramLabel = "DIR", description = "The new data directory (absent or empty).")
  Path data;

  @Option(names = "--timeout", defaultValue = "30s", paramLabel = "DURATION", description = "Per peer call (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    List<String> addresses = Arrays.stream(peers.split(",")).map(String::strip).filter(a -> !a.isEmpty()).toList();
    if (addresses.isEmpty()) {
      throw new CommandLine.ParameterException(cl, "--from-peers names no peer");
    }
    Duration t = Durations.parse(timeout);
    Recovery.Result r;
    try {
      r = Recovery.run(kit, data, addresses, t);
    } catch (IllegalArgumentException e) {
      cl.getErr().println("cairn-tracker recover: " + e.getMessage());
      return 2;
    }
    if (json) {
      cl.getOut().println(new ObjectMapper().writeValueAsString(r));
    } else {
      cl.getOut().printf(Locale.ROOT, "recovered %d versions of %d apps (%d chunk entries) from %d catalog records on %d peers into %s%n",
          r.catalog().versions(), r.catalog().apps(), r.catalog().chunks(), r.recordsFound(), r.peers().size(), data);
      if (r.catalog().piecesMissing() > 0) {
        cl.getOut().printf(Locale.ROOT, "%d pieces are held by no peer listed (repair rebuilds them); %d chunks have fewer than they"
            + " need%n", r.catalog().piecesMissing(), r.catalog().unreadable());
      }
      cl.getOut().println("next: start the tracker with --data " + data + " (the peers register again by themselves)");
    }
    for (String p : r.problems()) {
      cl.getErr().println("cairn-tracker recover: " + p);
    }
    cl.getOut().flush();
    return r.problems().isEmpty() ? 0 : 1;
  }
}
