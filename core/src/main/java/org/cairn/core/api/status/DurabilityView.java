package org.cairn.core.api.status;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code GET /api/v1/durability}: the repair planner's last scan. Chunk counts by health, the repair
 * queue and what is running, what repair has done, the latest version of every app/node with
 * whether it is restorable, and why repair is stalled, if it is (empty when nothing is).
 * {@code backlogBytes}: the pieces repair has yet to rebuild (of chunks it can rebuild, past their
 * grace); {@code repairBytesPerSecond}: what it rebuilt per second over about the last minute;
 * {@code etaSeconds}: the one over the other (null when nothing is to rebuild or nothing moves).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record DurabilityView(long scannedAt, long chunks, long healthy, long degraded, long lost, int repairQueue,
    int repairing, long repairedBytes, long repairedFragments, long failedRepairs, long repairGraceMillis, long neededBytes,
    List<Latest> latest, List<Stalled> stalled, long backlogBytes, double repairBytesPerSecond, Long etaSeconds) {

  public DurabilityView(long scannedAt, long chunks, long healthy, long degraded, long lost, int repairQueue, int repairing,
      long repairedBytes, long repairedFragments, long failedRepairs, long repairGraceMillis, long neededBytes, List<Latest> latest,
      List<Stalled> stalled) {
    this(scannedAt, chunks, healthy, degraded, lost, repairQueue, repairing, repairedBytes, repairedFragments, failedRepairs,
        repairGraceMillis, neededBytes, latest, stalled, 0, 0, null);
  }

  /** The same scan with only the latest versions of apps {@code shown} accepts (a scoped reader's view). */
  public DurabilityView onlyApps(java.util.function.Predicate<String> shown) {
    return new DurabilityView(scannedAt, chunks, healthy, degraded, lost, repairQueue, repairing, repairedBytes, repairedFragments,
        failedRepairs, repairGraceMillis, neededBytes, latest == null ? null : latest.stream().filter(l -> shown.test(l.app())).toList(),
        stalled, backlogBytes, repairBytesPerSecond, etaSeconds);
  }

  /**
   * The latest version of one app/node: whether it is restorable, and the coding its chunks really
   * have ({@code redundancy}: one spec, or {@code mixed} with the weakest in {@code weakest}).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Latest(String app, String node, long step, int chunks, int lostChunks, boolean restorable, String redundancy,
      String weakest) {}

  /**
   * Chunks repair cannot progress on, grouped by one reason that says what blocks and what unblocks
   * them. {@code kind} is one of {@code hosts}, {@code targets}, {@code executors}, {@code grace},
   * {@code lost}, {@code untagged} (null from a tracker that predates it).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Stalled(String reason, int chunks, String kind) {}
}
