package org.cairn.core.security;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyTemplates;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.PublicKeySign;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.signature.SignatureConfig;
import java.security.GeneralSecurityException;

/** The tracker's ticket signing key (a Tink Ed25519 keyset): signs tickets, gives its public half to peers. */
public final class TicketSigner {
  static {
    try {
      SignatureConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final KeysetHandle keyset;
  private final PublicKeySign sign;
  private final String publicKeyset;

  private TicketSigner(KeysetHandle keyset) throws GeneralSecurityException {
    this.keyset = keyset;
    this.sign = keyset.getPrimitive(RegistryConfiguration.get(), PublicKeySign.class);
    this.publicKeyset = TinkJsonProtoKeysetFormat.serializeKeysetWithoutSecret(keyset.getPublicKeysetHandle());
  }

  public static TicketSigner generate() {
    try {
      return new TicketSigner(KeysetHandle.generateNew(KeyTemplates.get("ED25519")));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a ticket signing key: " + e.getMessage(), e);
    }
  }

  /** From the private keyset JSON {@link #privateKeyset()} wrote. */
  public static TicketSigner parse(String json) {
    try {
      return new TicketSigner(TinkJsonProtoKeysetFormat.parseKeyset(json, InsecureSecretKeyAccess.get()));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("not a ticket signing key: " + e.getMessage(), e);
    }
  }

  /** The secret keyset as JSON (for the tracker's 0600 key file only). */
  public String privateKeyset() {
    try {
      return TinkJsonProtoKeysetFormat.serializeKeyset(keyset, InsecureSecretKeyAccess.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The public keyset peers verify with. */
  public String publicKeyset() {
    return publicKeyset;
  }

  public Ticket sign(Ticket unsigned) {
    try {
      return unsigned.signed(sign.sign(unsigned.signedBytes()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("signing a ticket failed: " + e.getMessage(), e);
    }
  }
}
