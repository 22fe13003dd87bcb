package org.cairn.core.placement;

import java.util.List;
import org.cairn.core.availability.HostState;
import org.cairn.core.config.ByteSize;

/** Fewer eligible hosts than a placement needs; the message says which condition ruled them out. */
public final class NotEnoughHostsException extends Exception {
  private static final long serialVersionUID = 1L;
  /** Whether enough hosts would be there once those BUSY or FULL now accept writes again. */
  private final boolean passing;

  public NotEnoughHostsException(int needed, int eligible, int total) {
    this("need " + needed + " storage hosts that are RUNNING or LOADED with room for a fragment, have " + eligible
        + " of " + total + " known", false);
  }

  private NotEnoughHostsException(String message, boolean passing) {
    super(message);
    this.passing = passing;
  }

  /**
   * True when the shortage may pass: with the hosts that are BUSY or FULL now (FALCON's transient states:
   * load, or as many writers as a host takes) there would be enough with room. A store may wait for them.
   */
  public boolean passing() {
    return passing;
  }

  /**
   * For a request the candidates could not meet: how many accept writes at all, how many of those
   * have room for this request's share ({@link PlacementRequest#fragmentBytes()}), and the most room
   * any has, so a too-large image is told apart from a grid that is down.
   */
  public static NotEnoughHostsException of(List<Candidate> candidates, PlacementRequest request) {
    long writable = candidates.stream().filter(c -> c.state().acceptsWrites()).count();
    int withRoom = PlacementPolicy.eligible(candidates, request).size();
    long mostFree = candidates.stream().filter(c -> c.state().acceptsWrites()).mapToLong(Candidate::freeBytes).max().orElse(0);
    long waiting = candidates.stream()
        .filter(c -> (c.state() == HostState.BUSY || c.state() == HostState.FULL) && c.freeBytes() >= request.fragmentBytes()).count();
    StringBuilder b = new StringBuilder().append("need ").append(request.n()).append(" storage hosts that are RUNNING or LOADED with ")
        .append(ByteSize.format(request.fragmentBytes())).append(" free each (1/").append(request.m())
        .append(" of this image); have ").append(withRoom).append(" of ").append(candidates.size()).append(" known");
    if (writable > withRoom) {
      b.append(" (").append(writable).append(" accept writes, the most room on one is ").append(ByteSize.format(mostFree))
          .append(": store a smaller image, or add donors or quota)");
    }
    boolean passing = withRoom + waiting >= request.n();
    if (waiting > 0) {
      b.append("; ").append(waiting).append(waiting == 1 ? " more is" : " more are").append(" BUSY or FULL now");
    }
    return new NotEnoughHostsException(b.toString(), passing);
  }
}
