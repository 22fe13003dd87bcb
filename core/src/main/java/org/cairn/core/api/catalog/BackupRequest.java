package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * {@code POST /api/v1/backup} (admin): write a consistent copy of the tracker's data directory (an
 * online RocksDB checkpoint of its database, and its keys and tokens) to {@code to}, a directory on
 * the tracker's own host that must not exist yet. The copy is itself a data directory: a tracker
 * started with {@code --data TO} serves what the tracker held at the checkpoint.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BackupRequest(String to) {

  /** What the backup holds. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(String to, long versions, long chunks, long bytes, double seconds) {}
}
