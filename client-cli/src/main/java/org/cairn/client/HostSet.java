package org.cairn.client;

import org.cairn.core.net.PeerConnection;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.cairn.core.security.GridToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * The n hosts of a store, slot i receiving fragment i of every chunk (FALCON-P), and the ranked
 * alternates. A host that refuses (FULL/BUSY/PAUSED/QUOTA) or fails is replaced in its slot by the
 * next alternate not already in use (FALCON §3.3 step 6); the store fails only when no alternate
 * remains. Connections are opened lazily and shared.
 */
final class HostSet {
  private static final Logger LOG = LoggerFactory.getLogger(HostSet.class);

  record Host(String id, String address) {}

  private final Host[] slots;
  private final Deque<Host> alternates = new ArrayDeque<>();
  private final Set<String> used = new HashSet<>();
  private final Map<String, PeerConnection> connections = new ConcurrentHashMap<>();
  private final List<String> replaced = new ArrayList<>();
  private final EventLoopGroup group;
  private final GridToken token;
  private final Duration timeout;

  HostSet(JsonNode placement, EventLoopGroup group, GridToken token, Duration timeout) {
    JsonNode hosts = placement.path("hosts");
    slots = new Host[hosts.size()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Host(hosts.get(i).path("id").asText(), hosts.get(i).path("address").asText());
      used.add(slots[i].id());
    }
    for (JsonNode a : placement.path("alternates")) {
      alternates.add(new Host(a.path("id").asText(), a.path("address").asText()));
    }
    this.group = group;
    this.token = token;
    this.timeout = timeout;
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

  synchronized List<String> replaced() {
    return new ArrayList<>(replaced);
  }

  /** The connection to a host, opened on first use. */
  PeerConnection connection(Host h) throws IOException {
    PeerConnection c = connections.get(h.address());
    if (c != null && c.isActive()) {
      return c;
    }
    try {
      c = PeerConnection.connect(group, h.address(), token, timeout).get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException ? (IOException) e.getCause() : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to " + h.address(), e);
    }
    connections.put(h.address(), c);
    return c;
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

  void close() {
    for (PeerConnection c : connections.values()) {
      c.close();
    }
  }
}
