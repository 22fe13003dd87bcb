package org.cairn.sim.measure;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cairn.core.api.TrackerClient;
import org.cairn.core.api.member.PeerView;

/**
 * Watches the tracker's peer list (as a client sees it) after donors were failed, until it shows every failed donor
 * DOWN: the time that took, and whether it ever showed DOWN a donor that was heartbeating (a false alarm).
 */
public final class DownWatch {
  private static final long POLL_MILLIS = 250;
  private final TrackerClient client;

  public DownWatch(TrackerClient client) {
    this.client = client;
  }

  /**
   * @param failed ids of the donors failed at {@code failedAtNanos}
   * @param ids every simulated donor's id, by index
   * @param alive whether donor {@code i} had a heartbeat answered in the interval before a poll was sent (then it cannot be DOWN)
   */
  public Outcome await(Set<String> failed, List<String> ids, long failedAtNanos, Alive alive, Duration limit)
      throws IOException, InterruptedException {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      index.put(ids.get(i), i);
    }
    long deadline = failedAtNanos + limit.toNanos();
    int wronglyDown = 0;
    int polls = 0;
    while (true) {
      long sent = System.nanoTime();
      List<PeerView> peers = client.peers();
      polls++;
      int down = 0;
      for (PeerView p : peers) {
        if (!"DOWN".equals(p.state()) || !index.containsKey(p.id())) {
          continue;
        }
        if (failed.contains(p.id())) {
          down++;
        } else if (alive.at(index.get(p.id()), sent)) {
          wronglyDown++;
        }
      }
      long now = System.nanoTime();
      if (down == failed.size()) {
        return new Outcome(failed.size(), down, Math.round((sent - failedAtNanos) / 1e7) / 100.0, wronglyDown, polls);
      }
      if (now > deadline) {
        return new Outcome(failed.size(), down, -1, wronglyDown, polls);
      }
      Thread.sleep(POLL_MILLIS); // the tracker's view is sampled at this period: this is the measurement's resolution
    }
  }

  /** Whether a donor had a heartbeat answered in the interval before {@code nanos}. */
  @FunctionalInterface
  public interface Alive {
    boolean at(int donor, long nanos);
  }

  /**
   * @param failed donors failed at once
   * @param markedDown of them, shown DOWN at the last poll
   * @param seconds from the failure to the poll that first showed them all DOWN (-1: not within the limit); the poll
   *     period bounds its resolution
   * @param wronglyDown polls' sightings of a heartbeating donor shown DOWN
   */
  public record Outcome(int failed, int markedDown, double seconds, int wronglyDown, int polls) {}
}
