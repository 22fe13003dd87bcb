package org.cairn.cli.context;

import java.util.Collection;
import org.cairn.core.api.member.PeerView;

/** The space of the peers that are not DOWN: donated (their quotas), used and free, as {@code status} and {@code df} on a mount show it. */
public record LiveCapacity(long donated, long used, long free) {
  public static LiveCapacity of(Collection<PeerView> peers) {
    long donated = 0;
    long used = 0;
    long free = 0;
    for (PeerView p : peers) {
      if (!"DOWN".equals(p.state())) {
        donated += p.quotaBytes();
        used += p.usedBytes();
        free += p.freeBytes();
      }
    }
    return new LiveCapacity(donated, used, free);
  }
}
