package org.cairn.client.store;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.cairn.core.api.catalog.PlacementAnswer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * The n hosts of a store, slot i receiving fragment i of every chunk (FALCON-P), and the ranked
 * alternates. A host that refuses (FULL/BUSY/PAUSED/QUOTA) or fails is replaced in its slot by the
 * next alternate not already in use (FALCON §3.3 step 6); the store fails only when no alternate
 * remains.
 */
final class HostSet {
  private static final Logger LOG = LoggerFactory.getLogger(HostSet.class);

  record Host(String id, String address) {}

  private final Host[] slots;
  private final Deque<Host> alternates = new ArrayDeque<>();
  private final Set<String> used = new HashSet<>();
  private final List<String> replaced = new ArrayList<>();

  HostSet(PlacementAnswer placement) {
    List<PlacementAnswer.PlacedHost> hosts = placement.hosts();
    slots = new Host[hosts.size()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Host(hosts.get(i).id(), hosts.get(i).address());
      used.add(slots[i].id());
    }
    for (PlacementAnswer.PlacedHost a : placement.alternates()) {
      alternates.add(new Host(a.id(), a.address()));
    }
  }

  int size() {
    return slots.length;
  }

  synchronized Host slot(int i) {
    return slots[i];
  }

  synchronized List<String> hostIds() {
    List<String> out = new ArrayList<>();
    for (Host h : slots) {
      out.add(h.id());
    }
    return out;
  }

  /** Every host the store may send pieces to: its slots and the alternates. */
  synchronized List<String> allIds() {
    List<String> out = hostIds();
    for (Host a : alternates) {
      out.add(a.id());
    }
    return out;
  }

  synchronized List<String> replaced() {
    return new ArrayList<>(replaced);
  }

  /**
   * Replaces the host in slot i (if it is still {@code failed}) by the next alternate.
   *
   * @throws IOException when no alternate is left
   */
  synchronized Host replace(int i, Host failed, String reason) throws IOException {
    if (!slots[i].equals(failed)) {
      return slots[i]; // another chunk's worker replaced it already
    }
    Host next;
    do {
      next = alternates.pollFirst();
    } while (next != null && used.contains(next.id()));
    if (next == null) {
      throw new IOException("store failed: host " + failed.id() + " (" + failed.address() + ") " + reason
          + ", and no alternate host is left; need " + slots.length + " hosts (try later, or a smaller m+k)");
    }
    LOG.warn("host {} {}; fragment {} of the remaining chunks goes to {} instead", failed.id(), reason, i, next.id());
    slots[i] = next;
    used.add(next.id());
    replaced.add(failed.id() + " -> " + next.id() + " (" + reason + ")");
    return next;
  }
}
