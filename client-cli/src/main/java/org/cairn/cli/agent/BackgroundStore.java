package org.cairn.cli.agent;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.time.Instant;
import java.util.function.Supplier;
import org.cairn.cli.context.QueuedStore;
import org.cairn.cli.context.Session;
import org.cairn.cli.output.StoreReport;
import org.cairn.client.Grid;
import org.cairn.client.keys.AppKeys;
import org.cairn.client.store.StoreOptions;
import org.cairn.client.store.StoreOutcome;
import org.cairn.core.chunk.ImageSource;
import org.cairn.core.crypto.ChunkCrypto;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link QueuedStore} in the agent through the client library: the app key from the store's key directory,
 * the spooled image into the grid it was queued for; what {@code cairn store} would have printed becomes its
 * {@link Session.Outcome} ({@code cairn wait} reports a failure's).
 */
final class BackgroundStore {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundStore.class);

  private BackgroundStore() {}

  /** Stores {@code store} to the grid {@code grid} lends (closed after: a lent grid stays open in the pool). */
  static Session.Outcome run(QueuedStore store, Supplier<Grid> grid) {
    try (Grid g = grid.get()) {
      StoreOptions options = store.sealedWith(crypto(store));
      long size = Files.size(store.image());
      StoreOutcome res;
      try (InputStream in = ImageSource.open(store.image())) {
        res = g.store(in, size, options);
      }
      StringWriter out = new StringWriter();
      try (PrintWriter w = new PrintWriter(out)) {
        StoreReport.print(w, false, res, options.writeMode(), options.set() == null ? null : options.set().part());
      }
      return new Session.Outcome(store.app(), store.node(), 0, out.toString(), "");
    } catch (Exception | LinkageError e) {
      String m = e.getMessage();
      return new Session.Outcome(store.app(), store.node(), 1, "",
          "cairn: store failed: " + (m == null || m.isBlank() ? e.getClass().getSimpleName() : m) + "\n");
    }
  }

  /** The app key's sealing the store was queued with (made now, loudly in the log, if it went missing since). */
  private static ChunkCrypto crypto(QueuedStore store) throws java.io.IOException {
    if (!store.sealing().encrypted()) {
      return ChunkCrypto.PLAIN;
    }
    AppKeys.Created key = AppKeys.locate(store.keyDir()).findOrCreate(store.app(), Instant.now());
    if (key.created()) {
      LOG.warn("created a new key {} for app {}: {}; {}", key.key().fingerprint(), store.app(), key.path(), AppKeys.LOSS_WARNING);
    }
    return key.key().crypto(store.sealing());
  }
}
