package org.cairn.tracker.repair;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cairn.core.hash.ChunkId;
import org.cairn.tracker.catalog.Catalog;
import org.cairn.tracker.events.EventLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bad-piece reports and what they may do: an authoritative one (the holder about its own pieces, or the admin) drops
 * the holder from the index at once, so repair rebuilds the piece; anyone else's is a suspicion ({@link Suspicions}),
 * which drops it only when a second reporter or the holder confirms it. Otherwise one client's or donor's reports
 * naming an app's fragment keys would erase that app. Called under the repair service's lock.
 */
final class BadReports {
  private static final Logger LOG = LoggerFactory.getLogger(BadReports.class);
  /** How long a suspicion waits for a second reporter. */
  static final Duration SUSPICION_TTL = Duration.ofHours(1);
  /** The most suspected fragments kept (about 200 bytes each); past it the oldest are forgotten. */
  static final int MAX_SUSPICIONS = 100_000;

  private final Catalog catalog;
  private final EventLog events;
  private final Suspicions suspicions = new Suspicions(MAX_SUSPICIONS, SUSPICION_TTL.toMillis());

  BadReports(Catalog catalog, EventLog events) {
    this.catalog = catalog;
    this.events = events;
  }

  /** Applies one report about {@code holder}'s fragments (37-byte keys, with why); returns how many index entries it dropped. */
  int report(String holder, Map<byte[], String> fragments, String reporterId, boolean authoritative, long now) throws IOException {
    List<byte[]> drop = new ArrayList<>();
    for (Map.Entry<byte[], String> f : fragments.entrySet()) {
      if (authoritative) {
        suspicions.forget(holder, f.getKey());
      }
      boolean confirmed = authoritative || suspicions.report(holder, f.getKey(), reporterId, now);
      if (confirmed) {
        drop.add(f.getKey());
      }
      ChunkId id = ChunkId.fromBytes(f.getKey(), 0);
      int index = f.getKey()[ChunkId.LENGTH] & 0xFF;
      String what = confirmed ? "dropped" : "suspected";
      LOG.warn("fragment {} of chunk {} on {} is {} bad ({}: {}){}", index, id.shortHex(), holder, what, reporterId, f.getValue(),
          confirmed ? "; repair will rebuild it" : "; a second reporter or the holder must confirm it");
      events.add(confirmed ? "bad-fragment" : "suspect-fragment", holder, "fragment " + index + " of chunk " + id.shortHex() + " "
          + what + " bad, reported by " + reporterId + ": " + f.getValue());
    }
    return drop.isEmpty() ? 0 : catalog.holders().dropHolder(holder, drop);
  }
}
