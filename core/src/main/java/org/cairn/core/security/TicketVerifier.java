package org.cairn.core.security;

import java.security.MessageDigest;
import java.util.Base64;

/**
 * A peer's check of the tickets presented to it, with its own ticket key (from its registration;
 * see {@link TicketSigner}): the peer named, the tracker's HMAC under this peer's key (compared in
 * constant time), the time.
 */
public final class TicketVerifier {
  private final byte[] key;
  private final KeyedHmac hmac;

  private TicketVerifier(byte[] key) {
    if (key.length != 32) {
      throw new IllegalArgumentException("a peer's ticket key is 32 bytes, not " + key.length);
    }
    this.key = key.clone();
    this.hmac = new KeyedHmac(key);
  }

  public static TicketVerifier of(byte[] peerKey) {
    return new TicketVerifier(peerKey);
  }

  /** From the base64 key a registration answer carries; anything else throws IllegalArgumentException. */
  public static TicketVerifier ofBase64(String peerKey) {
    return new TicketVerifier(Base64.getDecoder().decode(peerKey.strip()));
  }

  /** Whether this verifier holds {@code base64Key}. */
  public boolean holds(String base64Key) {
    return MessageDigest.isEqual(key, Base64.getDecoder().decode(base64Key.strip()));
  }

  /**
   * The ticket, if it names {@code self}, the tracker made it for this peer and it has not expired;
   * otherwise throws {@link SecurityException} saying which.
   */
  public Ticket check(Ticket t, String self, long now) {
    if (!t.peer().equals(self)) {
      throw new SecurityException("ticket is for peer " + t.peer() + ", not this one (" + self + ")");
    }
    if (!MessageDigest.isEqual(hmac.of(t.signedBytes()), t.signature())) {
      throw new SecurityException("ticket not signed by this grid's tracker");
    }
    if (now >= t.expiresAt()) {
      throw new SecurityException("ticket expired " + (now - t.expiresAt()) + " ms ago");
    }
    return t;
  }
}
