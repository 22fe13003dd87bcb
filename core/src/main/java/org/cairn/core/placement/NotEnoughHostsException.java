package org.cairn.core.placement;

import java.util.List;
import org.cairn.core.config.ByteSize;

/** Fewer eligible hosts than a placement needs; the message says which condition ruled them out. */
public final class NotEnoughHostsException extends Exception {
  private static final long serialVersionUID = 1L;

  public NotEnoughHostsException(int needed, int eligible, int total) {
    super("need " + needed + " storage hosts that are RUNNING or LOADED with room for a fragment, have " + eligible
        + " of " + total + " known");
  }

  private NotEnoughHostsException(String message) {
    super(message);
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
    StringBuilder b = new StringBuilder().append("need ").append(request.n()).append(" storage hosts that are RUNNING or LOADED with ")
        .append(ByteSize.format(request.fragmentBytes())).append(" free each (1/").append(request.m())
        .append(" of this image); have ").append(withRoom).append(" of ").append(candidates.size()).append(" known");
    if (writable > withRoom) {
      b.append(" (").append(writable).append(" accept writes, the most room on one is ").append(ByteSize.format(mostFree))
          .append(": store a smaller image, or add donors or quota)");
    }
    return new NotEnoughHostsException(b.toString());
  }
}
