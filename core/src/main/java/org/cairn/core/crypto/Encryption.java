package org.cairn.core.crypto;

/**
 * How a chunk's coded payload is protected; the id is stored in byte 10 of a version-2 fragment
 * header and the spec in the manifest. {@code NONE} chunks are version-1 fragments with SHA-256 ids.
 */
public enum Encryption {
  /** Plaintext (compressed only); chunk id = SHA-256 of the plaintext. Only by explicit choice. */
  NONE(0, "none"),
  /**
   * Tink streaming AEAD AES256_GCM_HKDF_4KB over the compressed chunk (AES-GCM per 4 KiB segment,
   * 0.4 % longer), the chunk id as associated data (the default).
   */
  AES_GCM(1, "aes-gcm"),
  /** Tink DeterministicAead AES256_SIV over the compressed chunk, the chunk id as associated data. */
  AES_SIV(2, "aes-siv");

  /** What {@code cairn store} uses unless told otherwise. */
  public static final Encryption DEFAULT = AES_GCM;

  private final int id;
  private final String spec;

  Encryption(int id, String spec) {
    this.id = id;
    this.spec = spec;
  }

  public int id() {
    return id;
  }

  public String spec() {
    return spec;
  }

  public boolean encrypted() {
    return this != NONE;
  }

  /** The encryption with this header id. */
  public static Encryption fromId(int id) {
    for (Encryption e : values()) {
      if (e.id == id) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown encryption id " + id);
  }

  /** Parses {@code none}, {@code aes-gcm} or {@code aes-siv}; null (an old manifest) is none. */
  public static Encryption parse(String spec) {
    if (spec == null) {
      return NONE;
    }
    for (Encryption e : values()) {
      if (e.spec.equals(spec)) {
        return e;
      }
    }
    throw new IllegalArgumentException("encryption must be aes-gcm, aes-siv or none, was '" + spec + "'");
  }
}
