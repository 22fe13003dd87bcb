package org.cairn.core.placement;

/** Fewer eligible storage hosts than the fragments to place. */
public final class NotEnoughHostsException extends Exception {
  private static final long serialVersionUID = 1L;

  public NotEnoughHostsException(int needed, int eligible, int total) {
    super("need " + needed + " storage hosts that are RUNNING or LOADED with room for a fragment, have " + eligible
        + " of " + total + " known");
  }
}
