package org.cairn.core.security;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.PublicKeyVerify;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.signature.SignatureConfig;
import java.security.GeneralSecurityException;

/**
 * Checks tickets against the tracker's public signing key (a Tink Ed25519 public keyset, which peers
 * receive at registration): signature, peer named, time.
 */
public final class TicketVerifier {
  static {
    try {
      SignatureConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final PublicKeyVerify verify;
  private final String publicKeyset;

  private TicketVerifier(PublicKeyVerify verify, String publicKeyset) {
    this.verify = verify;
    this.publicKeyset = publicKeyset;
  }

  /** From the tracker's public keyset (JSON); a malformed keyset throws IllegalArgumentException. */
  public static TicketVerifier of(String publicKeysetJson) {
    try {
      KeysetHandle h = TinkJsonProtoKeysetFormat.parseKeysetWithoutSecret(publicKeysetJson);
      return new TicketVerifier(h.getPrimitive(RegistryConfiguration.get(), PublicKeyVerify.class), publicKeysetJson);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("not a ticket verification key: " + e.getMessage(), e);
    }
  }

  public String publicKeyset() {
    return publicKeyset;
  }

  /**
   * The ticket, if the tracker signed it, it names {@code self} and has not expired; otherwise
   * throws {@link SecurityException} saying which.
   */
  public Ticket check(Ticket t, String self, long now) {
    try {
      verify.verify(t.signature(), t.signedBytes());
    } catch (GeneralSecurityException e) {
      throw new SecurityException("ticket not signed by this grid's tracker");
    }
    if (!t.peer().equals(self)) {
      throw new SecurityException("ticket is for peer " + t.peer() + ", not this one (" + self + ")");
    }
    if (now >= t.expiresAt()) {
      throw new SecurityException("ticket expired " + (now - t.expiresAt()) + " ms ago");
    }
    return t;
  }
}
