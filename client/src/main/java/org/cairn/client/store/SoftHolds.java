package org.cairn.client.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.catalog.CommitRequest;
import org.cairn.core.protocol.SoftAck;

/**
 * What the hosts said of a store's soft writes (pieces acknowledged before they are durable): per host
 * boot, the highest soft write number it gave the store's pieces, which the commit passes on so the
 * tracker knows when each host's pieces are durable.
 */
final class SoftHolds {
  private final Map<String, CommitRequest.SoftHold> byHostBoot = new HashMap<>();

  /** Records {@code host}'s soft acknowledgement {@code a}. */
  synchronized void ack(String host, SoftAck a) {
    String boot = Long.toHexString(a.boot());
    byHostBoot.merge(host + " " + boot, new CommitRequest.SoftHold(host, boot, a.seq()), (x, y) -> x.seq() >= y.seq() ? x : y);
  }

  /** One hold per host boot. */
  synchronized List<CommitRequest.SoftHold> all() {
    return new ArrayList<>(byHostBoot.values());
  }
}
