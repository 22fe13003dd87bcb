package org.cairn.tracker.catalog;

import java.io.IOException;
import java.nio.file.Path;
import org.cairn.tracker.MutableClock;
import org.cairn.tracker.events.EventLog;
import org.cairn.tracker.store.TrackerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A catalog over a real tracker database in a temporary directory, on a clock the test moves; {@link #reopen} restarts it. */
abstract class CatalogFixture {
  static final int CHUNK = 4096;

  @TempDir
  Path dir;

  final MutableClock clock = new MutableClock(1_800_000_000_000L);
  TrackerStore store;
  Catalog catalog;

  @BeforeEach
  void openCatalog() throws IOException {
    store = TrackerStore.open(dir);
    catalog = new Catalog(store, clock, new EventLog(clock, 100));
  }

  @AfterEach
  void closeCatalog() {
    store.close();
  }

  /** Closes the database and opens it again, as a tracker restart does. */
  void reopen() throws IOException {
    store.close();
    openCatalog();
  }
}
