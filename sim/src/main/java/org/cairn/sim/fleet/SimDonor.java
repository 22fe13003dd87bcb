package org.cairn.sim.fleet;

/**
 * One simulated donor: its index, id and address, the credential its enrollment gave it, and what the fleet tracks of
 * it. Its fields are written by the fleet's event-loop and scheduler threads, hence volatile.
 */
final class SimDonor {
  final int index;
  final String id;
  final String address;
  final String publicKey;
  volatile String credential;
  volatile boolean silenced;
  /** Its last heartbeat answered 200, null before. */
  volatile Beat lastOk;
  /** When its next heartbeat is due by its schedule (System.nanoTime()); only the scheduler's thread touches it. */
  long nextDueNanos;

  /** A heartbeat: when it was due (it reached the tracker after) and when its answer came (the tracker took it before). */
  record Beat(long dueNanos, long answeredNanos) {}

  SimDonor(int index, String id, String address, String publicKey) {
    this.index = index;
    this.id = id;
    this.address = address;
    this.publicKey = publicKey;
  }

  /** Donor i's id: sim-00042. */
  static String id(int index) {
    return String.format("sim-%06d", index);
  }

  /** A distinct address for donor i in 10.0.0.0/8 (the tracker refuses two peers at one address; nothing connects to it). */
  static String address(int index) {
    int n = index + 1;
    return "10." + ((n >> 16) & 255) + "." + ((n >> 8) & 255) + "." + (n & 255) + ":7700";
  }
}
