package org.cairn.tracker.membership;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** What the tracker keeps about a peer (persisted as JSON in the PEERS column family). */
@JsonIgnoreProperties(ignoreUnknown = true)
record PeerRecord(
    String id,
    String address,
    String reportedState,
    long freeBytes,
    long usedBytes,
    long quotaBytes,
    long fragments,
    boolean paused,
    long lastHeartbeat,
    long registeredAt,
    boolean left,
    String version) {

  PeerRecord withHeartbeat(String state, long free, long used, long frags, boolean isPaused, long now) {
    return new PeerRecord(id, address, state, free, used, quotaBytes, frags, isPaused, now, registeredAt, false, version);
  }

  PeerRecord withLeft(long now) {
    return new PeerRecord(id, address, reportedState, freeBytes, usedBytes, quotaBytes, fragments, paused, now, registeredAt,
        true, version);
  }

  PeerRecord withLastHeartbeat(long now) {
    return new PeerRecord(id, address, reportedState, freeBytes, usedBytes, quotaBytes, fragments, paused, now, registeredAt,
        left, version);
  }
}
