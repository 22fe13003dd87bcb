package org.cairn.core.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.crypto.tink.DeterministicAead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyTemplates;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.StreamingAead;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.daead.DeterministicAeadConfig;
import com.google.crypto.tink.prf.PrfConfig;
import com.google.crypto.tink.prf.PrfSet;
import com.google.crypto.tink.streamingaead.StreamingAeadConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One app's key: three Google Tink keysets, kept together in one JSON file that never leaves the
 * client. {@code ids} (HMAC_SHA256_PRF) makes chunk ids, a keyed hash of the plaintext, so equal
 * chunks of the app still deduplicate while no one without the key can confirm a guessed chunk;
 * {@code stream} (AES256_GCM_HKDF_4KB, a streaming AEAD: AES-GCM per 4 KiB segment under a key
 * derived per chunk from a random salt) and {@code daead} (AES256_SIV) seal compressed chunks (see
 * {@link Encryption}). The fingerprint is a keyed hash of the keysets' ids, safe to show and to
 * record in manifests: it tells keys apart without revealing them.
 *
 * <pre>
 * {"format": "cairn-app-key", "version": 2, "app": "heat", "created": "2026-...Z",
 *  "fingerprint": "3f2a9c01...", "ids": {tink keyset}, "stream": {tink keyset}, "daead": {tink keyset}}
 * </pre>
 */
public final class AppKey {
  public static final String FORMAT = "cairn-app-key";
  /** 2: the {@code stream} keyset replaced version 1's one-shot {@code aead} (never released). */
  public static final int VERSION = 2;
  private static final ObjectMapper JSON = new ObjectMapper();

  static {
    try {
      StreamingAeadConfig.register();
      DeterministicAeadConfig.register();
      PrfConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final String app;
  private final Instant created;
  private final KeysetHandle ids;
  private final KeysetHandle stream;
  private final KeysetHandle daead;
  private final PrfSet prf;
  private final IdPrf idPrf;
  private final String fingerprint;

  private AppKey(String app, Instant created, KeysetHandle ids, KeysetHandle stream, KeysetHandle daead)
      throws GeneralSecurityException {
    this.app = app;
    this.created = created;
    this.ids = ids;
    this.stream = stream;
    this.daead = daead;
    this.prf = ids.getPrimitive(RegistryConfiguration.get(), PrfSet.class);
    this.idPrf = IdPrf.of(ids, prf);
    byte[] label = ("cairn-key-fingerprint/2:" + stream.getPrimary().getId() + ":" + daead.getPrimary().getId())
        .getBytes(StandardCharsets.US_ASCII);
    this.fingerprint = HexFormat.of().formatHex(prf.computePrimary(label, 8));
  }

  /** A new random key for {@code app}. */
  public static AppKey generate(String app, Instant now) {
    Objects.requireNonNull(app, "app");
    try {
      return new AppKey(app, now, KeysetHandle.generateNew(KeyTemplates.get("HMAC_SHA256_PRF")),
          KeysetHandle.generateNew(KeyTemplates.get("AES256_GCM_HKDF_4KB")), KeysetHandle.generateNew(KeyTemplates.get("AES256_SIV")));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Tink cannot make a key: " + e.getMessage(), e);
    }
  }

  /**
   * Reads a key file's text.
   *
   * @param source names the file in errors
   * @throws IOException naming {@code source} and what is wrong with it
   */
  public static AppKey fromJson(String json, String source) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new IOException(source + " is not a Cairn key file: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject() || !FORMAT.equals(root.path("format").asText())) {
      throw new IOException(source + " is not a Cairn key file (no \"format\": \"" + FORMAT + "\")");
    }
    if (root.path("version").asInt() != VERSION) {
      throw new IOException(source + " is a version " + root.path("version").asText() + " key file; this build reads " + VERSION);
    }
    try {
      AppKey key = new AppKey(root.path("app").asText(), Instant.parse(root.path("created").asText()),
          keyset(root, "ids"), keyset(root, "stream"), keyset(root, "daead"));
      String recorded = root.path("fingerprint").asText(null);
      if (recorded != null && !recorded.equals(key.fingerprint)) {
        throw new IOException(source + " says fingerprint " + recorded + " but its keys give " + key.fingerprint + "; the file was altered");
      }
      return key;
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IOException(source + " holds no valid key: " + e.getMessage(), e);
    }
  }

  private static KeysetHandle keyset(JsonNode root, String field) throws GeneralSecurityException {
    JsonNode node = root.get(field);
    if (node == null || !node.isObject()) {
      throw new GeneralSecurityException("no \"" + field + "\" keyset");
    }
    return TinkJsonProtoKeysetFormat.parseKeyset(node.toString(), InsecureSecretKeyAccess.get());
  }

  /** The key file's text (it holds the secret keys). */
  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("version", VERSION);
    root.put("app", app);
    root.put("created", created.toString());
    root.put("fingerprint", fingerprint);
    try {
      root.set("ids", JSON.readTree(TinkJsonProtoKeysetFormat.serializeKeyset(ids, InsecureSecretKeyAccess.get())));
      root.set("stream", JSON.readTree(TinkJsonProtoKeysetFormat.serializeKeyset(stream, InsecureSecretKeyAccess.get())));
      root.set("daead", JSON.readTree(TinkJsonProtoKeysetFormat.serializeKeyset(daead, InsecureSecretKeyAccess.get())));
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("a key does not serialise: " + e.getMessage(), e);
    }
  }

  /** The app this key was made for. */
  public String app() {
    return app;
  }

  public Instant created() {
    return created;
  }

  /** 16 hex digits naming this key (a keyed hash of its keysets' ids; reveals nothing of the keys). */
  public String fingerprint() {
    return fingerprint;
  }

  /** The chunk ids and sealing of this key under {@code encryption} ({@link ChunkCrypto#PLAIN} for none). */
  public ChunkCrypto crypto(Encryption encryption) {
    try {
      switch (encryption) {
        case NONE:
          return ChunkCrypto.PLAIN;
        case AES_GCM:
          return new KeyedChunks(encryption, fingerprint, idPrf, TinkSealer.of(stream.getPrimitive(RegistryConfiguration.get(), StreamingAead.class)));
        case AES_SIV:
          return new KeyedChunks(encryption, fingerprint, idPrf,
              TinkSealer.of(daead.getPrimitive(RegistryConfiguration.get(), DeterministicAead.class)));
        default:
          throw new IllegalArgumentException("no sealing for " + encryption);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Tink cannot use the key of app " + app + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "AppKey{" + app + " " + fingerprint + "}";
  }
}
