package org.cairn.tracker;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.BackupRequest;
import org.cairn.core.config.ByteSize;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.store.TrackerBackup;
import org.cairn.tracker.store.TrackerStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code cairn-tracker backup --to DIR}: a consistent copy of a tracker's data directory. A running
 * tracker makes it itself (an online RocksDB checkpoint, asked for over its API with the admin
 * token); a stopped one's directory ({@code --data}) is copied directly.
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
    description = {"Write a consistent copy of the tracker's data directory (database, keys, tokens, CA) to a new directory DIR "
        + "on the tracker's host, while it runs. To restore: stop the tracker, then start it with --data on the copy "
        + "(or on a copy of it). Without --data, or when the tracker at --data is running, the running tracker at "
        + "--tracker makes the copy."})
final class BackupCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--to", required = true, paramLabel = "DIR", description = "The new directory to write (must not exist).")
  Path to;

  @Option(names = "--data", paramLabel = "DIR", description = "The tracker's data directory (its admin token is read from it).")
  Path data;

  @Option(names = "--tracker", defaultValue = "https://127.0.0.1:7600", paramLabel = "URL",
      description = {"The running tracker, or a tracker group's members as URL1,URL2,URL3 (the leader makes the copy, on "
          + "its host; default: ${DEFAULT-VALUE})."})
  String tracker;

  @Option(names = "--token-file", paramLabel = "FILE", description = "An admin token (default: DATA/admin.token).")
  Path tokenFile;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    CommandLine cl = spec.commandLine();
    Path target = to.toAbsolutePath().normalize();
    BackupRequest.Answer a = null;
    if (data != null) {
      TokenCommand.requireData(cl, data);
      TrackerStore store = null;
      try {
        store = TrackerStore.open(data.resolve("db"));
      } catch (IOException e) {
        if (!String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("lock")) {
          throw e;
        }
        // the tracker is running: it makes the backup
      }
      if (store != null) {
        try (TrackerStore s = store) {
          a = TrackerBackup.write(s, data, target);
        }
      }
    }
    if (a == null) {
      Path token = tokenFile != null ? tokenFile : data != null ? data.resolve("admin.token") : null;
      if (token == null || !Files.isReadable(token)) {
        throw new CommandLine.ParameterException(cl, "backing up a running tracker needs its admin token: --token-file FILE or --data DIR");
      }
      java.util.List<URI> trackers = java.util.Arrays.stream(tracker.split(",")).map(String::strip).map(URI::create).toList();
      a = new TrackerClient(trackers, GridToken.readFile(token), Duration.ofMinutes(30)).backup(target.toString());
    }
    if (json) {
      cl.getOut().println(new ObjectMapper().writeValueAsString(a));
    } else {
      cl.getOut().printf(Locale.ROOT, "backed up %d versions and %d chunk entries (%s) to %s in %.1f s%n", a.versions(), a.chunks(),
          ByteSize.format(a.bytes()), a.to(), a.seconds());
    }
    cl.getOut().flush();
    return 0;
  }
}
