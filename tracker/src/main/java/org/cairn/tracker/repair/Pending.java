package org.cairn.tracker.repair;

import org.cairn.core.hash.ChunkId;

/**
 * A chunk queued for repair: {@code surplus} live pieces beyond the m it needs (negative for a chunk
 * fewer than m live pieces hold, whose repair needs holders listed DOWN to answer: tried after the
 * others), whether it belongs to an app/node's latest version, and whether the scan found no target
 * for it (tried last).
 */
record Pending(String app, ChunkId id, int surplus, boolean latest, boolean blocked) {
  /** Fewer than m live pieces: only holders the tracker lists DOWN can complete its read. */
  boolean longShot() {
    return surplus < 0;
  }
}
