package org.cairn.tracker.repair;

import org.cairn.core.hash.ChunkId;

/**
 * A chunk queued for repair: {@code surplus} live pieces beyond the m it needs, whether it belongs to
 * an app/node's latest version, and whether the scan found no target for it (tried after the others).
 */
record Pending(String app, ChunkId id, int surplus, boolean latest, boolean blocked) {}
