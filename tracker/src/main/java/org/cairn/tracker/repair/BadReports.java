package org.cairn.tracker.repair;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
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

  /**
   * Applies one report about {@code holder}'s fragments (37-byte keys, with why) by {@code reporterId}, who may speak for
   * the apps {@code scope} accepts; returns how many index entries it dropped. An authoritative report drops the holder in
   * every app's entry; a confirmed suspicion only in the entries of apps both reporters may speak for, so two tokens of
   * one app's users cannot make another app's entries forget a holder.
   */
  int report(String holder, Map<byte[], String> fragments, String reporterId, boolean authoritative, Predicate<String> scope,
      long now) throws IOException {
    if (authoritative) {
      List<byte[]> keys = new ArrayList<>(fragments.keySet());
      keys.forEach(k -> suspicions.forget(holder, k));
      fragments.forEach((k, why) -> note(holder, k, why, reporterId, true, ""));
      return catalog.holders().dropHolder(holder, keys);
    }
    int dropped = 0;
    for (Map.Entry<byte[], String> f : fragments.entrySet()) {
      byte[] key = f.getKey();
      Predicate<String> where = suspicions.report(holder, key, reporterId, scope, now);
      int n = where == null ? 0 : catalog.holders().dropHolder(holder, List.of(key), where);
      if (where != null && n == 0) {
        suspicions.restart(holder, key, reporterId, scope, now); // the two reporters share no app indexing it
      }
      dropped += n;
      note(holder, key, f.getValue(), reporterId, n > 0, where == null || n > 0 ? "" : " (no app both reporters may speak for indexes it)");
    }
    return dropped;
  }

  private void note(String holder, byte[] key, String why, String reporterId, boolean dropped, String aside) {
    ChunkId id = ChunkId.fromBytes(key, 0);
    int index = key[ChunkId.LENGTH] & 0xFF;
    String what = dropped ? "dropped as" : "suspected";
    LOG.warn("fragment {} of chunk {} on {} is {} bad ({}: {}){}{}", index, id.shortHex(), holder, what, reporterId, why, aside,
        dropped ? "; repair will rebuild it" : "; a second reporter or the holder must confirm it");
    events.add(dropped ? "bad-fragment" : "suspect-fragment", holder, "fragment " + index + " of chunk " + id.shortHex() + " "
        + (dropped ? "dropped" : "suspected") + " bad, reported by " + reporterId + ": " + why);
  }
}
