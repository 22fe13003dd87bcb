package org.cairn.tracker.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.cairn.core.config.Durations;
import org.cairn.tracker.store.TrackerStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Each app's folder policy (stdchk §IV.E): keep-all (the default), replace (a commit deletes the
 * node's older versions) or purge-after=DURATION (versions committed longer ago go, never a node's
 * latest). Kept in the POLICIES family, app -> the policy's text. The catalog applies them under its
 * lock; this class says what they are and which versions they expire.
 */
final class FolderPolicies {
  private static final Logger LOG = LoggerFactory.getLogger(FolderPolicies.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PURGE_AFTER = "purge-after=";

  /** A version a purge-after policy has expired. */
  record Expired(String app, String node, long step) {}

  private final TrackerStore store;

  FolderPolicies(TrackerStore store) {
    this.store = store;
  }

  String get(String app) throws IOException {
    byte[] v = store.get(TrackerStore.Family.POLICIES, app.getBytes(StandardCharsets.UTF_8));
    return v == null ? "keep-all" : new String(v, StandardCharsets.UTF_8);
  }

  void set(String app, String folder) throws IOException {
    String f = folder == null ? "" : folder.trim();
    if (!f.equals("keep-all") && !f.equals("replace") && !f.startsWith(PURGE_AFTER)) {
      throw new IllegalArgumentException("folder policy must be keep-all, replace or purge-after=DURATION, was '" + folder + "'");
    }
    if (f.startsWith(PURGE_AFTER)) {
      Durations.parse(f.substring(PURGE_AFTER.length()));
    }
    // a batch, so a lone tracker has the policy it answered for on disk (a lost purge-after would keep or drop versions)
    store.write(new org.cairn.tracker.store.Batch().put(TrackerStore.Family.POLICIES, app.getBytes(StandardCharsets.UTF_8),
        f.getBytes(StandardCharsets.UTF_8)));
    LOG.info("app {}: folder policy {}", app, f);
  }

  /** The versions committed before {@code nowMillis} minus their app's purge-after duration, but each node's latest. */
  List<Expired> expired(long nowMillis) throws IOException {
    Map<String, Duration> purge = new HashMap<>();
    store.scan(TrackerStore.Family.POLICIES, new byte[0], (key, value) -> {
      String f = new String(value, StandardCharsets.UTF_8);
      if (f.startsWith(PURGE_AFTER)) {
        purge.put(new String(key, StandardCharsets.UTF_8), Durations.parse(f.substring(PURGE_AFTER.length())));
      }
      return true;
    });
    List<Expired> expired = new ArrayList<>();
    for (Map.Entry<String, Duration> e : purge.entrySet()) {
      String app = e.getKey();
      Map<String, List<long[]>> byNode = new TreeMap<>(); // node -> [step, committedAt]
      store.scan(TrackerStore.Family.VERSIONS, (app + "\u0000").getBytes(StandardCharsets.UTF_8), (key, value) -> {
        String node = new String(key, 0, key.length - 9, StandardCharsets.UTF_8).split("\u0000", 2)[1];
        long step = ByteBuffer.wrap(key, key.length - 8, 8).getLong();
        byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(new long[] {step, JSON.readValue(value, VersionRecord.class).committedAt()});
        return true;
      });
      for (Map.Entry<String, List<long[]>> n : byNode.entrySet()) {
        List<long[]> vs = n.getValue();
        for (int i = 0; i < vs.size() - 1; i++) { // sorted by step; the last (latest) is kept
          if (nowMillis - vs.get(i)[1] > e.getValue().toMillis()) {
            expired.add(new Expired(app, n.getKey(), vs.get(i)[0]));
          }
        }
      }
    }
    return expired;
  }
}
