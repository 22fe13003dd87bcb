package org.cairn.core.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The tracker's ticket key, as a Kerberos KDC holds its services' keys: a 256-bit master secret
 * ({@code DATA/ticket.key}) from which each peer's own key is derived (HMAC-SHA256 of the peer id).
 * A peer gets its key at registration; a ticket for peer P carries the HMAC-SHA256 of its body under
 * P's key, so only the tracker can make one and only P can check it — another peer, which holds a
 * different key, can neither forge nor verify it. Symmetric on purpose: a store presents a ticket per
 * host per batch of chunks, and an Ed25519 check costs a fresh peer JVM milliseconds where an HMAC
 * costs microseconds (docs/benchmarks/journal.md, "Tickets").
 */
public final class TicketSigner {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String LABEL = "cairn-ticket-key-v1:";

  private final byte[] master;
  /** Each peer's key as an HMAC ready to use (a store has a ticket signed per host per batch). */
  private final Map<String, KeyedHmac> signers = new ConcurrentHashMap<>();

  private TicketSigner(byte[] master) {
    if (master.length != 32) {
      throw new IllegalArgumentException("a ticket master key is 32 bytes, not " + master.length);
    }
    this.master = master.clone();
  }

  public static TicketSigner generate() {
    byte[] k = new byte[32];
    RANDOM.nextBytes(k);
    return new TicketSigner(k);
  }

  /** From the base64 text {@link #secret()} wrote; anything else throws IllegalArgumentException. */
  public static TicketSigner parse(String base64) {
    return new TicketSigner(Base64.getDecoder().decode(base64.strip()));
  }

  /** The master secret as base64 (for the tracker's 0600 key file only). */
  public String secret() {
    return Base64.getEncoder().encodeToString(master);
  }

  /** Peer {@code peerId}'s own ticket key: what its registration answer carries. */
  public byte[] peerKey(String peerId) {
    return hmac(master, (LABEL + peerId).getBytes(StandardCharsets.UTF_8)); // asked once per registration
  }

  public Ticket sign(Ticket unsigned) {
    KeyedHmac signer = signers.computeIfAbsent(unsigned.peer(), id -> new KeyedHmac(peerKey(id)));
    return unsigned.signed(signer.of(unsigned.signedBytes()));
  }

  static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }
}
