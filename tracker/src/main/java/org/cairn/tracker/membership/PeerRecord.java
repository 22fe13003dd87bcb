package org.cairn.tracker.membership;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What the tracker keeps about a peer (persisted as JSON in the PEERS column family). {@code publicKey} is the
 * data-plane key it last registered with (base64 SubjectPublicKeyInfo; null on a plain grid): a registration
 * proving that key may stand in for the credential the peer lost ({@code RegistrationProof}).
 */
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
    String version,
    String publicKey) {

  PeerRecord withHeartbeat(String state, long free, long used, long frags, boolean isPaused, long now) {
    return new PeerRecord(id, address, state, free, used, quotaBytes, frags, isPaused, now, registeredAt, false, version, publicKey);
  }

  PeerRecord withLeft(long now) {
    return new PeerRecord(id, address, reportedState, freeBytes, usedBytes, quotaBytes, fragments, paused, now, registeredAt,
        true, version, publicKey);
  }

  PeerRecord withFreeBytes(long free) {
    return new PeerRecord(id, address, reportedState, free, usedBytes, quotaBytes, fragments, paused, lastHeartbeat, registeredAt,
        left, version, publicKey);
  }

  PeerRecord withLastHeartbeat(long now) {
    return new PeerRecord(id, address, reportedState, freeBytes, usedBytes, quotaBytes, fragments, paused, now, registeredAt,
        left, version, publicKey);
  }
}
