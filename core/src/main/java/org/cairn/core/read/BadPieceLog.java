package org.cairn.core.read;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.protocol.FragmentKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pieces found bad while reading (corrupt on arrival, or not held where the index says they are),
 * by holder, to be reported to the tracker so its index stops naming them and repair rebuilds them.
 * Thread-safe.
 */
public final class BadPieceLog {
  private static final Logger LOG = LoggerFactory.getLogger(BadPieceLog.class);

  private final Map<String, Map<FragmentKey, String>> byHolder = new LinkedHashMap<>();

  public synchronized void add(String holder, FragmentKey key, String reason) {
    byHolder.computeIfAbsent(holder, h -> new LinkedHashMap<>()).put(key, reason);
  }

  public synchronized int size() {
    int n = 0;
    for (Map<FragmentKey, String> m : byHolder.values()) {
      n += m.size();
    }
    return n;
  }

  /**
   * Reports everything collected as found by {@code reporter}, then forgets it. A report that does
   * not reach the tracker is logged and dropped: the peers' own audits find the same pieces later.
   *
   * @return pieces reported
   */
  public int flush(TrackerClient tracker, String reporter) {
    Map<String, Map<FragmentKey, String>> taken;
    synchronized (this) {
      taken = new LinkedHashMap<>(byHolder);
      byHolder.clear();
    }
    int reported = 0;
    for (Map.Entry<String, Map<FragmentKey, String>> e : taken.entrySet()) {
      try {
        tracker.reportBad(e.getKey(), reporter, e.getValue());
        reported += e.getValue().size();
        LOG.warn("reported {} bad pieces on {} to the tracker", e.getValue().size(), e.getKey());
      } catch (IOException | RuntimeException ex) {
        LOG.warn("could not report {} bad pieces on {}: {}", e.getValue().size(), e.getKey(), ex.getMessage());
      }
    }
    return reported;
  }
}
