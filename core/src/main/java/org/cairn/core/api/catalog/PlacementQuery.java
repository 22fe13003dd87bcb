package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST /api/v1/placement}: where should a checkpoint of {@code imageBytes} coded m+k go for
 * compute host {@code client}. Null optional fields take the tracker's defaults (FALCON §3.2: the
 * checkpoint interval, useful time so far, the compute host's MTTF from its history, the bandwidth
 * assumed for hosts never measured, and m+k alternates).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PlacementQuery(String client, long imageBytes, Integer m, Integer k, String policy, Double intervalSeconds,
    Double usefulSeconds, Double mttfSeconds, Double defaultBytesPerSecond, Integer alternates) {

  /** The common case: the tracker's defaults for everything optional. */
  public static PlacementQuery of(String client, long imageBytes, int m, int k, String policy, int alternates) {
    return new PlacementQuery(client, imageBytes, m, k, policy, null, null, null, null, alternates);
  }
}
