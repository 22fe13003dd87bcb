package org.cairn.tracker.repair;

import java.util.HashSet;
import java.util.Set;
import org.cairn.core.hash.ChunkId;

/**
 * What happened under a walk of the chunk index, which runs without the repair service's lock ({@link RepairService}):
 * the chunks claimed, reported or confirmed meanwhile, for which the walk's result is corrected before it is published
 * ({@link WalkReconcile}), and whether something asked for a scan soon (a bad piece dropped, a rebuilt piece
 * confirmed), which the published snapshot must go on asking. Guarded by the service's lock.
 */
final class WalkChanges {
  /** A chunk a claim, report or confirmation touched. */
  record Touched(String app, ChunkId id) {}

  private Set<Touched> touched = new HashSet<>();
  private boolean rescan;

  void touched(String app, ChunkId id) {
    touched.add(new Touched(app, id));
  }

  void rescan() {
    rescan = true;
  }

  boolean rescanAsked() {
    return rescan;
  }

  /** The chunks touched since the last call. */
  Set<Touched> drain() {
    Set<Touched> out = touched;
    touched = new HashSet<>();
    return out;
  }
}
