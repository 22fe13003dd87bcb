package org.cairn.tracker.catalog;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.hash.ChunkId;

/**
 * The commits the repair scan may fold into its last walk of the chunk index instead of walking it
 * again: each wrote a version and chunk records that were new to the index, nothing else a chunk's
 * health depends on (a commit that re-coded a held chunk more strongly replaced its record and is
 * not kept). The scan reads the catalog's change count and these commits together, under the
 * catalog's lock, which every commit holds from its write to its entry here ({@link Catalog#changesAfter}).
 * Bounded: past {@link #KEPT} commits the oldest are dropped, and a scan that needed them walks.
 */
public final class CommitJournal {
  /** A commit that can be folded: its sequence number, the version, and the chunks it added to the index. */
  public record Committed(long seq, String app, String node, long step, List<ChunkId> created) {}

  /**
   * The catalog as one scan reads it: {@code changes} (version and chunk records written), how many of
   * those all journaled commits made ({@code foldableWrites}, kept or dropped), the last commit's sequence
   * number, and the commits after the one asked for (null when some of them are no longer kept).
   */
  public record Mark(long changes, long foldableWrites, long seq, List<Committed> after) {}

  static final int KEPT = 256;
  private final ArrayDeque<Committed> kept = new ArrayDeque<>();
  private long seq;
  private long writes;

  /** Called by a commit, with the catalog's lock held, after its batch is written. */
  void add(String app, String node, long step, List<ChunkId> created, long versionAndChunkWrites) {
    seq++;
    writes += versionAndChunkWrites;
    kept.addLast(new Committed(seq, app, node, step, List.copyOf(created)));
    if (kept.size() > KEPT) {
      kept.removeFirst();
    }
  }

  /** With the catalog's lock held: the mark for a scan that has folded (or walked) everything up to {@code after}. */
  Mark mark(long changes, long after) {
    while (!kept.isEmpty() && kept.peekFirst().seq() <= after) {
      kept.removeFirst(); // folded already: the scan never asks for them again
    }
    List<Committed> out = null;
    if (after >= seq || (!kept.isEmpty() && kept.peekFirst().seq() == after + 1)) {
      out = new ArrayList<>(kept);
    }
    return new Mark(changes, writes, seq, out);
  }

  long seq() {
    return seq;
  }
}
