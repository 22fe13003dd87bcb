package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The small answers of calls that change one thing: {@link PeerLeft} ({@code POST
 * /api/v1/peers/{id}/leave}), {@link Deleted} ({@code DELETE /api/v1/versions}), {@link SessionClosed}
 * ({@code DELETE /api/v1/stores/{session}}), {@link BandwidthNoted} ({@code POST /api/v1/bandwidth}).
 */
public final class Acknowledged {
  private Acknowledged() {
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record PeerLeft(String id, String state) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Deleted(boolean deleted) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SessionClosed(boolean closed) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record BandwidthNoted(String client, String peer) {}
}
