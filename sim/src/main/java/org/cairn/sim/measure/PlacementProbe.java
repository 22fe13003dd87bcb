package org.cairn.sim.measure;

import java.io.IOException;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.cairn.core.api.catalog.PlacementQuery;

/**
 * Placement as a client's store asks for it (client/store/StorePlan: m+k hosts and alternates for an image), one query
 * after another with the client's own credential, timed end to end.
 */
public final class PlacementProbe {
  private static final int WARM_UP = 10;
  private final TrackerClient client;

  public PlacementProbe(TrackerClient client) {
    this.client = client;
  }

  /** Times {@code queries} placements of a 1 GiB image coded 4+2 with 6 alternates (after a few untimed ones). */
  public Latencies run(int queries) throws IOException {
    PlacementQuery q = PlacementQuery.of("sim-client", 1L << 30, 4, 2, null, 6);
    for (int i = 0; i < Math.min(WARM_UP, queries); i++) {
      client.place(q);
    }
    Latencies l = new Latencies();
    for (int i = 0; i < queries; i++) {
      long start = System.nanoTime();
      PlacementAnswer a = client.place(q);
      l.record(System.nanoTime() - start);
      if (a == null || a.hosts() == null || a.hosts().size() != 6) {
        throw new IOException("the tracker placed " + (a == null || a.hosts() == null ? 0 : a.hosts().size()) + " hosts, not 4+2");
      }
    }
    return l;
  }
}
