package org.cairn.peer.server;

import java.time.Duration;
import org.cairn.core.protocol.Frame;
import org.cairn.core.protocol.FrameDecoder;

/**
 * What the data server grants a connection before and around authentication. Donors serve strangers
 * on a shared network: without these a connection that never authenticates could hold a socket and
 * make the peer buffer a 32 MiB frame, and enough of them would exhaust its memory and descriptors.
 *
 * @param maxConnections connections open at once, authenticated or not; one more is closed at accept
 * @param maxPerAddress connections open at once from one remote IP address (so one host cannot take
 *     every slot); one more from it is closed at accept
 * @param authDeadline a connection that has not authenticated this long after it opened is closed
 *     (the TLS handshake counts towards it)
 * @param preAuthPayload largest frame payload taken before authentication (an AUTH is 32 bytes);
 *     a larger length field closes the connection before the payload is read
 */
public record ConnectionLimits(int maxConnections, int maxPerAddress, Duration authDeadline, int preAuthPayload) {
  /** 512 connections, 64 per address, 10 s to authenticate, 64 KiB frames before that. */
  public static final ConnectionLimits DEFAULT =
      new ConnectionLimits(512, 64, Duration.ofSeconds(10), FrameDecoder.PRE_AUTH_PAYLOAD);

  public ConnectionLimits {
    if (maxConnections < 1 || maxPerAddress < 1 || maxPerAddress > maxConnections) {
      throw new IllegalArgumentException("max connections must be at least 1 and max connections per address 1.." + maxConnections
          + ", were " + maxConnections + " and " + maxPerAddress);
    }
    if (authDeadline == null || authDeadline.toMillis() < 100 || authDeadline.toMinutes() > 10) {
      throw new IllegalArgumentException("the authentication deadline must be 100ms..10min, was " + authDeadline);
    }
    if (preAuthPayload < 64 || preAuthPayload > Frame.MAX_PAYLOAD) {
      throw new IllegalArgumentException("the pre-authentication frame limit must be 64.." + Frame.MAX_PAYLOAD + " bytes, was "
          + preAuthPayload);
    }
  }

  /** The defaults with other connection caps. */
  public static ConnectionLimits of(int maxConnections, int maxPerAddress) {
    return new ConnectionLimits(maxConnections, maxPerAddress, DEFAULT.authDeadline(), DEFAULT.preAuthPayload());
  }
}
