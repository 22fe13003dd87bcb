package org.cairn.sim;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * One run's settings, validated ({@link SimMain} parses them from flags).
 *
 * @param trackers the tracker group's URLs (one for a lone tracker)
 * @param tokenFile the operator's (admin) token: the run issues its donor enrollment token and client token with it
 * @param trackerPids the trackers' process ids on this machine, in the order of {@code trackers} (empty: no CPU figure)
 */
public record SimSettings(List<URI> trackers, Path tokenFile, int donors, double minutes, int connections, int threads,
    int placements, double failFraction, int downLimitSeconds, List<Long> trackerPids, double timeScale, int startHour,
    boolean outages, long seed) {

  public SimSettings {
    trackers = List.copyOf(trackers);
    trackerPids = List.copyOf(trackerPids);
    require(!trackers.isEmpty(), "--tracker is required");
    require(donors >= 1 && donors <= 1_000_000, "--donors must be 1..1000000, was " + donors);
    require(minutes > 0 && minutes <= 24 * 60, "--minutes must be in (0, 1440], was " + minutes);
    require(connections >= 1 && connections <= 10_000, "--connections must be 1..10000, was " + connections);
    require(threads >= 1 && threads <= 64, "--threads must be 1..64, was " + threads);
    require(placements >= 0, "--placements must be 0 or more, was " + placements);
    require(failFraction >= 0 && failFraction < 1, "--fail-fraction must be in [0, 1), was " + failFraction);
    require(downLimitSeconds >= 1, "--down-limit must be at least 1 s, was " + downLimitSeconds);
    require(trackerPids.isEmpty() || trackerPids.size() == trackers.size(),
        "--tracker-pid names " + trackerPids.size() + " processes for " + trackers.size() + " trackers: give one per --tracker URL, in order");
    require(timeScale > 0, "--time-scale must be positive, was " + timeScale);
    require(startHour >= 0 && startHour < 24, "--start-hour must be 0..23, was " + startHour);
    for (URI u : trackers) {
      require(("https".equalsIgnoreCase(u.getScheme()) || "http".equalsIgnoreCase(u.getScheme())) && u.getHost() != null,
          "--tracker must be http(s)://HOST:PORT, was " + u);
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
