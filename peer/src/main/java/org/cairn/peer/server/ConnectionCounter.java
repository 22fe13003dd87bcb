package org.cairn.peer.server;

import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the data server's open connections, in total and by remote address, and admits a new one
 * only under {@link ConnectionLimits}' caps. Checked when a connection is accepted, before any
 * handler (TLS included) is set up, so one refused costs a close and nothing else. Thread-safe: the
 * accepting and closing event loops differ.
 */
final class ConnectionCounter {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionCounter.class);
  /** At most one warning per this many refusals, so a flood does not flood the log. */
  private static final int WARN_EVERY = 1000;

  private final ConnectionLimits limits;
  private final AtomicInteger total = new AtomicInteger();
  /** Open connections by remote address; an address with none has no entry. Changed only inside compute calls. */
  private final ConcurrentHashMap<InetAddress, Integer> byAddress = new ConcurrentHashMap<>();
  private final AtomicInteger refused = new AtomicInteger();

  ConnectionCounter(ConnectionLimits limits) {
    this.limits = limits;
  }

  /**
   * Counts {@code ch} and arranges for it to be uncounted when it closes; false (nothing counted) if
   * a cap is reached, and the caller closes it.
   */
  boolean admit(Channel ch) {
    InetAddress address = addressOf(ch.remoteAddress());
    if (total.incrementAndGet() > limits.maxConnections()) {
      total.decrementAndGet();
      return refuse(address, "the peer's " + limits.maxConnections() + " connections are open");
    }
    if (address != null) {
      boolean[] counted = new boolean[1];
      byAddress.compute(address, (a, n) -> {
        int open = n == null ? 0 : n;
        counted[0] = open < limits.maxPerAddress();
        return counted[0] ? open + 1 : n;
      });
      if (!counted[0]) {
        total.decrementAndGet();
        return refuse(address, limits.maxPerAddress() + " connections from this address are open");
      }
    }
    ch.closeFuture().addListener(f -> {
      total.decrementAndGet();
      if (address != null) {
        release(address);
      }
    });
    return true;
  }

  /** Open connections (tests). */
  int open() {
    return total.get();
  }

  /** Open connections from {@code address} (tests). */
  int open(InetAddress address) {
    Integer n = byAddress.get(address);
    return n == null ? 0 : n;
  }

  private void release(InetAddress address) {
    byAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
  }

  private boolean refuse(InetAddress address, String why) {
    if (refused.getAndIncrement() % WARN_EVERY == 0) {
      LOG.warn("refused a data connection from {}: {} ({} refused so far)", address, why, refused.get());
    }
    return false;
  }

  private static InetAddress addressOf(SocketAddress a) {
    return a instanceof InetSocketAddress i ? i.getAddress() : null;
  }
}
