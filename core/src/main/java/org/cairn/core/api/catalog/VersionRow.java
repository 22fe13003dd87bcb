package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One version as {@code GET /api/v1/versions?app=A&node=N} lists it. {@code redundancy} is how its
 * chunks are really coded: one spec when all agree, else {@code mixed}, with the weakest coding among
 * them in {@code weakest}. {@code status}: healthy, degraded, lost or deleted, from the chunk index now.
 * A checkpoint set's version names its {@code set} and has {@code parts} parts ({@code size} and
 * {@code chunks} add up all parts); both are absent for a plain version. {@code recorded}: whether the
 * version's catalog record is on the grid (recovery from the peers finds the version).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VersionRow(String app, String node, long step, long size, long storedBytes, int chunks, long newChunks,
    String redundancy, String weakest, String requested, String kind, long createdAt, long committedAt, String status,
    String set, Integer parts, Boolean recorded) {

  public VersionRow(String app, String node, long step, long size, long storedBytes, int chunks, long newChunks,
      String redundancy, String weakest, String requested, String kind, long createdAt, long committedAt, String status,
      String set, Integer parts) {
    this(app, node, step, size, storedBytes, chunks, newChunks, redundancy, weakest, requested, kind, createdAt, committedAt, status,
        set, parts, null);
  }

  /** A plain version's row. */
  public VersionRow(String app, String node, long step, long size, long storedBytes, int chunks, long newChunks,
      String redundancy, String weakest, String requested, String kind, long createdAt, long committedAt, String status) {
    this(app, node, step, size, storedBytes, chunks, newChunks, redundancy, weakest, requested, kind, createdAt, committedAt, status,
        null, null);
  }

  /** This row with {@code status}. */
  public VersionRow withStatus(String status) {
    return new VersionRow(app, node, step, size, storedBytes, chunks, newChunks, redundancy, weakest, requested, kind, createdAt,
        committedAt, status, set, parts, recorded);
  }
}
