package org.cairn.core.api.status;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code GET /api/v1/capacity?window=24h}: the grid's donated space over time, one sample per
 * history slot (oldest first): what the live peers offered ({@code quotaBytes}), what they hold
 * ({@code usedBytes}) and how many were live.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CapacitySeries(long slotMillis, List<Sample> samples) {

  /** One slot's totals over the peers that were not DOWN. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Sample(long time, long quotaBytes, long usedBytes, int livePeers) {}
}
