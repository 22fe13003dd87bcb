package org.cairn.core.crypto;

import com.google.crypto.tink.HybridDecrypt;
import com.google.crypto.tink.HybridEncrypt;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyTemplates;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.hybrid.HybridConfig;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/**
 * The grid's catalog key: a Google Tink hybrid keyset (HPKE: X25519, HKDF-SHA256,
 * AES-256-GCM). Clients seal each version's catalog record with the public half, which the tracker
 * hands out with every placement; only the private half (the tracker's {@code catalog.key}, which the
 * operator keeps a copy of off the grid) opens them. So donors holding catalog records learn nothing
 * from them, and a tracker rebuilt from the peers ({@code cairn-tracker recover --from-peers}) can read
 * them all. The context info binds a sealed record to its purpose.
 */
public final class CatalogKey {
  private static final byte[] CONTEXT = "cairn-catalog-record/1".getBytes(StandardCharsets.UTF_8);
  private static final String TEMPLATE = "DHKEM_X25519_HKDF_SHA256_HKDF_SHA256_AES_256_GCM";

  static {
    try {
      HybridConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private CatalogKey() {}

  /** A new private keyset, as Tink's JSON on one line (for the tracker's 0600 {@code catalog.key}). */
  public static String generatePrivate() {
    try {
      String json = TinkJsonProtoKeysetFormat.serializeKeyset(KeysetHandle.generateNew(KeyTemplates.get(TEMPLATE)),
          InsecureSecretKeyAccess.get());
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).toString(); // one line
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("Tink cannot make a catalog key: " + e.getMessage(), e);
    }
  }

  /** The public keyset of a private one (JSON, no secrets): what clients seal with. */
  public static String publicOf(String privateJson) {
    try {
      KeysetHandle priv = TinkJsonProtoKeysetFormat.parseKeyset(privateJson, InsecureSecretKeyAccess.get());
      return TinkJsonProtoKeysetFormat.serializeKeysetWithoutSecret(priv.getPublicKeysetHandle());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not a catalog key: " + e.getMessage(), e);
    }
  }

  /** Seals {@code plaintext} under the public keyset {@code publicJson}. */
  public static byte[] seal(String publicJson, byte[] plaintext) {
    return sealer(publicJson).seal(plaintext);
  }

  /** A sealer for the public keyset {@code publicJson}, made once (parsing the keyset costs more than a seal). Thread-safe. */
  public static Sealer sealer(String publicJson) {
    try {
      KeysetHandle pub = TinkJsonProtoKeysetFormat.parseKeysetWithoutSecret(publicJson);
      return new Sealer(pub.getPrimitive(RegistryConfiguration.get(), HybridEncrypt.class));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not a public catalog key: " + e.getMessage(), e);
    }
  }

  /** Seals records under one public catalog key. */
  public static final class Sealer {
    private final HybridEncrypt encrypt;

    private Sealer(HybridEncrypt encrypt) {
      this.encrypt = encrypt;
    }

    public byte[] seal(byte[] plaintext) {
      try {
        return encrypt.encrypt(plaintext, CONTEXT);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("sealing a catalog record failed: " + e.getMessage(), e);
      }
    }
  }

  /** Opens what {@link #seal} made, with the private keyset; GeneralSecurityException if it is not ours or was altered. */
  public static byte[] open(String privateJson, byte[] sealed) throws GeneralSecurityException {
    KeysetHandle priv = TinkJsonProtoKeysetFormat.parseKeyset(privateJson, InsecureSecretKeyAccess.get());
    return priv.getPrimitive(RegistryConfiguration.get(), HybridDecrypt.class).decrypt(sealed, CONTEXT);
  }
}
