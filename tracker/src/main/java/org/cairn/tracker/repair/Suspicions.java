package org.cairn.tracker.repair;

import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Bad-piece reports not yet believed: who said that a holder's fragment is bad, and when. A report by anyone but the
 * holder itself (or the admin) is only a suspicion, since a client or another donor could otherwise erase an app's pieces
 * by naming their keys; a second report of the same fragment on the same holder by a different reporter within
 * {@code ttlMillis} confirms it. Kept in memory, at most {@code max} suspicions (the oldest go first) and each for
 * {@code ttlMillis}: a tracker restart forgets them, which costs only a second report. Not thread-safe: called under the
 * repair service's lock.
 */
final class Suspicions {
  private record Suspicion(String reporter, Predicate<String> scope, long at) {}

  private final int max;
  private final long ttlMillis;
  /** holder + " " + fragment key hex -> the first reporter, oldest first. */
  private final LinkedHashMap<String, Suspicion> open = new LinkedHashMap<>();

  Suspicions(int max, long ttlMillis) {
    if (max < 1 || ttlMillis < 1) {
      throw new IllegalArgumentException("suspicions need max >= 1 and a ttl >= 1 ms");
    }
    this.max = max;
    this.ttlMillis = ttlMillis;
  }

  /**
   * Records that {@code reporter}, who may speak for the apps {@code scope} accepts, suspects {@code fragmentKey} on
   * {@code holder}. When another reporter suspected it within the ttl, the suspicion is confirmed and forgotten, and the
   * answer is the apps both may speak for (where the fragment may be dropped); otherwise null: it is (still) only
   * suspected.
   */
  Predicate<String> report(String holder, byte[] fragmentKey, String reporter, Predicate<String> scope, long now) {
    expire(now);
    String k = key(holder, fragmentKey);
    Suspicion s = open.get(k);
    if (s != null && !s.reporter().equals(reporter)) {
      open.remove(k);
      return s.scope().and(scope);
    }
    if (s == null) {
      if (open.size() >= max) {
        Iterator<String> eldest = open.keySet().iterator();
        eldest.next();
        eldest.remove();
      }
      open.put(k, new Suspicion(reporter, scope, now));
    }
    return null;
  }

  /**
   * Records {@code reporter}'s suspicion afresh, replacing any: a confirmation whose two reporters share no app that
   * indexes the fragment dropped nothing, and the later reporter's word waits for another.
   */
  void restart(String holder, byte[] fragmentKey, String reporter, Predicate<String> scope, long now) {
    open.remove(key(holder, fragmentKey));
    report(holder, fragmentKey, reporter, scope, now);
  }

  /** Forgets the suspicion of a fragment on a holder (the holder confirmed it, and it was dropped). */
  void forget(String holder, byte[] fragmentKey) {
    open.remove(key(holder, fragmentKey));
  }

  /** Suspicions kept now. */
  int size() {
    return open.size();
  }

  private void expire(long now) {
    for (Iterator<Map.Entry<String, Suspicion>> it = open.entrySet().iterator(); it.hasNext(); ) {
      if (now - it.next().getValue().at() < ttlMillis) {
        return; // oldest first: the rest are younger
      }
      it.remove();
    }
  }

  private static String key(String holder, byte[] fragmentKey) {
    return holder + " " + HexFormat.of().formatHex(fragmentKey);
  }
}
