package org.cairn.core.read;

import org.cairn.core.api.catalog.LocatedChunk;

/**
 * The one rule for a chunk's health, given the good pieces found: healthy with every piece,
 * degraded with at least m (its own m) but not all, lost with fewer than m. Fetch, verify and the
 * tracker's status all judge by it.
 */
public enum Health {
  HEALTHY, DEGRADED, LOST;

  public static Health of(LocatedChunk chunk, int good) {
    return of(chunk.needed(), chunk.pieces(), good);
  }

  public static Health of(int needed, int pieces, int good) {
    if (needed <= 0 || good < needed) {
      return LOST;
    }
    return good >= pieces ? HEALTHY : DEGRADED;
  }
}
