package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code GET /api/v1/durability}: the repair planner's last scan. Chunk counts by health, the repair
 * queue and what is running, what repair has done, and the latest version of every app/node with
 * whether it is restorable.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record DurabilityView(long scannedAt, long chunks, long healthy, long degraded, long lost, int repairQueue,
    int repairing, long repairedBytes, long repairedFragments, long failedRepairs, long repairGraceMillis, long neededBytes,
    List<Latest> latest) {

  /** The latest version of one app/node. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Latest(String app, String node, long step, int chunks, int lostChunks, boolean restorable) {}
}
