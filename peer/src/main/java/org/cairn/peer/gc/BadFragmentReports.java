package org.cairn.peer.gc;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.protocol.FragmentKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This peer's own fragments found bad (corrupt on disk, or counted on by the index but not held), to
 * be reported to the tracker so repair rebuilds them. Unlike a reader's {@code BadPieceLog}, a report
 * that does not reach the tracker is kept and tried again with the next heartbeat. Thread-safe.
 */
public final class BadFragmentReports {
  private static final Logger LOG = LoggerFactory.getLogger(BadFragmentReports.class);

  private final TrackerClient tracker;
  private final String self;
  /** Found and not yet reported: key -> reason. */
  private final Map<FragmentKey, String> pending = new LinkedHashMap<>();

  public BadFragmentReports(TrackerClient tracker, String self) {
    this.tracker = tracker;
    this.self = self;
  }

  public synchronized void add(FragmentKey key, String reason) {
    pending.put(key, reason);
  }

  public synchronized int pending() {
    return pending.size();
  }

  /** Reports what is pending; what the tracker did not take stays for the next call. */
  public void report() {
    Map<FragmentKey, String> batch;
    synchronized (this) {
      if (pending.isEmpty()) {
        return;
      }
      batch = new LinkedHashMap<>(pending);
    }
    try {
      tracker.reportBad(self, self, batch);
      synchronized (this) {
        pending.keySet().removeAll(batch.keySet());
      }
      LOG.info("reported {} bad fragments to the tracker for repair", batch.size());
    } catch (IOException e) {
      LOG.warn("reporting {} bad fragments failed ({}); retrying with the next heartbeat", batch.size(), e.getMessage());
    }
  }
}
