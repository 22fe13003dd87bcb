package org.cairn.tracker.group;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.security.GridToken;
import org.cairn.tracker.auth.Credentials;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first leader of a group shares its secrets (data-plane key, ticket key, admin token, catalog key,
 * tokens) through the log, so every member signs and checks with the same ones; later leaders find
 * them shared and do nothing.
 */
final class SharedSecrets {
  private static final Logger LOG = LoggerFactory.getLogger(SharedSecrets.class);
  private static final byte[] SECRETS_SHARED = "secrets-shared".getBytes(StandardCharsets.UTF_8);
  private static final byte[] CATALOG_KEY_SHARED = "catalog-key-shared".getBytes(StandardCharsets.UTF_8);

  private SharedSecrets() {
  }

  /** Shares what the group does not hold yet, through {@code replicator}; called by a leader before it serves. */
  static void shareOnce(TrackerStore store, RaftReplicator replicator, Path dataDir, GridToken token, Clock clock) throws IOException {
    if (store.get(TrackerStore.Family.CLUSTER, SECRETS_SHARED) != null) {
      if (store.get(TrackerStore.Family.CLUSTER, CATALOG_KEY_SHARED) == null) { // a group formed before catalog records
        String key = Credentials.catalogKey(dataDir);
        replicator.submit(LogEntries.file(Credentials.CATALOG_KEY, (key + "\n").getBytes(StandardCharsets.UTF_8)));
        store.put(TrackerStore.Family.CLUSTER, CATALOG_KEY_SHARED, new byte[] {1});
        LOG.info("shared the grid's catalog key with the group");
      }
      return;
    }
    Credentials.open(dataDir, token, clock); // makes what is missing
    List<String> names = new ArrayList<>(List.of("dataplane.key", "ticket.key", "admin.token", "catalog.key"));
    Path tokens = dataDir.resolve("tokens");
    if (Files.isDirectory(tokens)) {
      try (var files = Files.list(tokens)) {
        files.map(f -> "tokens/" + f.getFileName()).filter(n -> n.endsWith(".json")).sorted().forEach(names::add);
      }
    }
    for (String name : names) {
      Path f = dataDir.resolve(name);
      if (Files.exists(f)) {
        replicator.submit(LogEntries.file(name, Files.readAllBytes(f)));
      }
    }
    store.put(TrackerStore.Family.CLUSTER, SECRETS_SHARED, new byte[] {1});
    store.put(TrackerStore.Family.CLUSTER, CATALOG_KEY_SHARED, new byte[] {1});
    LOG.info("shared the grid's keys with the group");
  }
}
