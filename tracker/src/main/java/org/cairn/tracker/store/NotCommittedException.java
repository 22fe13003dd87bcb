package org.cairn.tracker.store;

import java.io.IOException;

/**
 * A write a tracker group did not commit: this member does not lead a majority (any more). Nothing
 * was applied here; the caller should be sent to the leader ({@link #leader}, null if unknown).
 */
public final class NotCommittedException extends IOException {
  private static final long serialVersionUID = 1L;
  private final String leader;

  public NotCommittedException(String message, String leader) {
    super(message);
    this.leader = leader;
  }

  public String leader() {
    return leader;
  }
}
