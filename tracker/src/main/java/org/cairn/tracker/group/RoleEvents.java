package org.cairn.tracker.group;

/**
 * What a member hears from Ratis about its role, in the order Ratis reports it. Ratis calls these on
 * its own threads (some while it holds its locks), so an implementation only hands them on: it must
 * neither block nor write to the log here.
 */
interface RoleEvents {
  /** This member leads and its term's first entry is applied: it may start serving the grid. */
  void leaderReady();

  /** This member no longer leads: it must stop serving. */
  void notLeader();

  /** A member was elected leader: {@code leader} is its id (this member's own when it won). */
  void leaderChanged(String leader);
}
