package org.cairn.tracker.group;

import java.util.LinkedHashMap;
import java.util.Map;
import org.cairn.core.config.HostPort;

/**
 * {@code --peers ID1=H1:P1,ID2=H2:P2,ID3=H3:P3 --id IDn}: the members of a tracker group by id, each
 * with the address its members replicate the log over (not the HTTP API's {@code --listen}), and
 * which member this process is.
 */
public record GroupSpec(String self, Map<String, HostPort> members, long snapshotEvery) {
  /** Log entries between snapshots unless {@code --snapshot-every} says. */
  public static final long DEFAULT_SNAPSHOT_EVERY = 10_000;

  public GroupSpec(String self, Map<String, HostPort> members) {
    this(self, members, DEFAULT_SNAPSHOT_EVERY);
  }

  public GroupSpec {
    if (snapshotEvery < 10) {
      throw new IllegalArgumentException("--snapshot-every must be at least 10 log entries, was " + snapshotEvery);
    }
    members = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(members));
    if (members.size() < 3) {
      throw new IllegalArgumentException("a tracker group needs at least 3 members (--peers names " + members.size()
          + "); without --peers the tracker runs alone");
    }
    if (members.size() % 2 == 0) {
      throw new IllegalArgumentException("a tracker group of " + members.size() + " members tolerates no more failures than one of "
          + (members.size() - 1) + "; use an odd number (3 or 5)");
    }
    if (self == null || !members.containsKey(self)) {
      throw new IllegalArgumentException("--id must name one of the --peers (" + String.join(", ", members.keySet()) + "), was "
          + (self == null ? "missing" : "'" + self + "'"));
    }
  }

  /** The same group, with a snapshot every {@code entries} log entries. */
  public GroupSpec withSnapshotEvery(long entries) {
    return new GroupSpec(self, members, entries);
  }

  /** Parses {@code ID=HOST:PORT,...}; every error names the bad part. */
  public static GroupSpec parse(String peers, String self) {
    Map<String, HostPort> members = new LinkedHashMap<>();
    for (String part : peers.split(",")) {
      String p = part.strip();
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--peers takes ID=HOST:PORT,...; '" + p + "' has no ID=");
      }
      String id = p.substring(0, eq);
      if (!id.matches("[A-Za-z0-9._-]{1,64}")) {
        throw new IllegalArgumentException("a tracker id is 1-64 of A-Z a-z 0-9 . _ -, was '" + id + "'");
      }
      HostPort address = HostPort.parse(p.substring(eq + 1));
      if (address.port() == 0) {
        throw new IllegalArgumentException("tracker " + id + " needs a fixed replication port, was " + p.substring(eq + 1));
      }
      if (members.put(id, address) != null) {
        throw new IllegalArgumentException("--peers names tracker " + id + " twice");
      }
    }
    return new GroupSpec(self, members);
  }
}
