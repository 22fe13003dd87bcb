package org.cairn.core.api.member;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * {@code POST /api/v1/peers}: a peer joining (or rejoining) with its data address and inventory
 * summary. On a grid with TLS, {@code publicKey} (base64 X.509 SubjectPublicKeyInfo) asks the
 * tracker to certify the key for the peer's data plane; null otherwise. {@code instance} names the
 * peer's process (random, new at every start): a registration under the same instance is a quota
 * change from a running peer, one under another (or none) a restart, which loses the work it had
 * claimed (repair jobs). {@code proof} and {@code proofAt} ({@link org.cairn.core.security.RegistrationProof}) let a
 * peer already registered with {@code publicKey} register again with its enrollment token when the answer that
 * carried its credential was lost.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record RegisterRequest(
    String id,
    String address,
    String state,
    long freeBytes,
    long usedBytes,
    long quotaBytes,
    long fragments,
    boolean paused,
    String version,
    String publicKey,
    String instance,
    String proof,
    Long proofAt) {

  /** Without a proof of the key (a peer registering with its own credential, or a plain grid). */
  public RegisterRequest(String id, String address, String state, long freeBytes, long usedBytes, long quotaBytes, long fragments,
      boolean paused, String version, String publicKey, String instance) {
    this(id, address, state, freeBytes, usedBytes, quotaBytes, fragments, paused, version, publicKey, instance, null, null);
  }

  /** Without a process instance (a registration that is always taken for a restart). */
  public RegisterRequest(String id, String address, String state, long freeBytes, long usedBytes, long quotaBytes, long fragments,
      boolean paused, String version, String publicKey) {
    this(id, address, state, freeBytes, usedBytes, quotaBytes, fragments, paused, version, publicKey, null, null, null);
  }

  /** Without a key to certify (plain data plane). */
  public RegisterRequest(String id, String address, String state, long freeBytes, long usedBytes, long quotaBytes, long fragments,
      boolean paused, String version) {
    this(id, address, state, freeBytes, usedBytes, quotaBytes, fragments, paused, version, null, null, null, null);
  }
}
