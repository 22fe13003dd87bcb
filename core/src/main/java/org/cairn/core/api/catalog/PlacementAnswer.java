package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The tracker's placement: {@code hosts} (slot i receives fragment i of every chunk), ranked
 * {@code alternates} for hosts that refuse or fail, and FALCON's objective F (null when the policy
 * has none).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PlacementAnswer(String policy, List<PlacedHost> hosts, List<PlacedHost> alternates, Double objective) {

  /**
   * One candidate host: its data address, the available bandwidth measured from the client (null if
   * never measured) and how old that measurement is, and the rate its disk takes writes (null: unknown).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record PlacedHost(String id, String address, Double bytesPerSecond, Double bandwidthAgeSeconds,
      Double diskBytesPerSecond) {}
}
