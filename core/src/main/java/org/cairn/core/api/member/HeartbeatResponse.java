package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What the tracker answers a registration or heartbeat with: the interval it expects heartbeats at,
 * and how many repair jobs wait (a peer that may execute them claims with POST /peers/{id}/repair).
 * A registration also carries the grid's data-plane key ({@code dataKey}, what peers and clients
 * prove on the data plane) and, for a donor that joined with an enrollment token, its own
 * credential ({@code credential}: the peer keeps it and uses it for every later call). On a grid
 * with TLS, a registration that sent a public key gets its data-plane certificate and the CA's
 * ({@code certificate}, {@code caCertificate}: base64 DER). A registration also carries the
 * peer's own ticket key ({@code ticketKey}, base64, derived by the tracker; secret): what the
 * peer checks data-plane tickets with. All are null in heartbeats.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record HeartbeatResponse(String id, long heartbeatIntervalMillis, long serverTime, int repairQueued, String dataKey,
    String credential, String certificate, String caCertificate, String ticketKey) {
  public HeartbeatResponse(String id, long heartbeatIntervalMillis, long serverTime, int repairQueued) {
    this(id, heartbeatIntervalMillis, serverTime, repairQueued, null, null, null, null, null);
  }

  public HeartbeatResponse(String id, long heartbeatIntervalMillis, long serverTime, int repairQueued, String dataKey,
      String credential) {
    this(id, heartbeatIntervalMillis, serverTime, repairQueued, dataKey, credential, null, null, null);
  }

  @Override
  public String toString() {
    return "HeartbeatResponse[id=" + id + ", heartbeatIntervalMillis=" + heartbeatIntervalMillis + ", repairQueued=" + repairQueued
        + (dataKey != null ? ", dataKey=redacted" : "") + (credential != null ? ", credential=redacted" : "")
        + (ticketKey != null ? ", ticketKey=redacted" : "") + "]";
  }
}
