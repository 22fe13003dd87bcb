package org.cairn.client.store;

import java.io.IOException;
import java.time.Duration;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.TrackerHttp;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Placement that waits out a passing shortage of hosts. FALCON's BUSY and FULL are transient (a donor's
 * own disk load, or as many writers as it takes): when the tracker refuses a placement only because
 * hosts are in those states now, it says when to ask again, and a store asks again until its wait is
 * spent, instead of losing the checkpoint. A grid that is too small, too full or down fails at once.
 */
final class HostWait {
  private static final Logger LOG = LoggerFactory.getLogger(HostWait.class);

  private HostWait() {}

  /** {@code tracker.place(query)}, asked again while the tracker says the shortage may pass, for up to {@code wait}. */
  static PlacementAnswer place(TrackerClient tracker, PlacementQuery query, Duration wait) throws IOException {
    long start = System.nanoTime();
    long deadline = start + wait.toNanos();
    boolean said = false;
    while (true) {
      try {
        PlacementAnswer answer = tracker.place(query);
        if (said) {
          LOG.warn("placed after waiting {} s for hosts to accept writes", (System.nanoTime() - start) / 1_000_000_000);
        }
        return answer;
      } catch (TrackerHttp.TrackerException e) {
        Long retry = e.retryAfterMs();
        if (e.status() != 409 || retry == null) {
          throw e;
        }
        long now = System.nanoTime();
        if (now >= deadline) {
          throw new TrackerHttp.TrackerException(e.status(), e.getMessage() + (said ? "; waited " + wait.toSeconds()
              + " s for them to accept writes (--host-wait)" : ""), null);
        }
        if (!said) {
          said = true;
          LOG.warn("{}; waiting up to {} s for them to accept writes (--host-wait)", e.getMessage(), wait.toSeconds());
        }
        try {
          Thread.sleep(Math.max(1, Math.min(retry, (deadline - now) / 1_000_000)));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for hosts to accept writes", ie);
        }
      }
    }
  }
}
