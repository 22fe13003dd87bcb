package org.cairn.sim.durability;

/**
 * One stored version as bookkeeping: its pieces (piece i of every chunk goes to host i, as a store places them, so a
 * version is n pieces of a 1/m share each), who holds each and on which generation of that donor's disk, and what the
 * run saw happen to it.
 */
final class Version {
  final int id;
  final int job;
  final int m;
  final long pieceBytes;
  final int computeHost;
  final int[] holder;
  final int[] generation;
  /** Pieces on donors that are up and still have them. */
  int live;
  int minLive;
  /** Fewer than m live pieces at some instant: unreadable then. */
  boolean unreadable;
  /** Fewer than m pieces left anywhere: gone for good. */
  boolean lost;
  boolean deleted;
  /** Since when it has had fewer than m live pieces, or -1. */
  long unreadableSince = -1;
  boolean repairing;
  /** The job's newest version (repair serves those first). */
  boolean latest = true;

  Version(int id, int job, int m, long pieceBytes, int computeHost, int[] holder, int[] generation) {
    this.id = id;
    this.job = job;
    this.m = m;
    this.pieceBytes = pieceBytes;
    this.computeHost = computeHost;
    this.holder = holder;
    this.generation = generation;
    this.live = holder.length;
    this.minLive = holder.length;
  }

  int n() {
    return holder.length;
  }

  /** Whether piece {@code i} still exists (its holder has not been wiped since it was written). */
  boolean present(int i, Donors donors) {
    return donors.generation(holder[i]) == generation[i];
  }

  boolean live(int i, Donors donors) {
    return present(i, donors) && donors.up(holder[i]);
  }

  /** Whether {@code donor} holds a piece of this version now. */
  boolean holds(int donor, Donors donors) {
    for (int i = 0; i < holder.length; i++) {
      if (holder[i] == donor && present(i, donors)) {
        return true;
      }
    }
    return false;
  }
}
