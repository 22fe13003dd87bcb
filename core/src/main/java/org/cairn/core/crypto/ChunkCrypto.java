package org.cairn.core.crypto;

import org.cairn.core.CorruptDataException;
import org.cairn.core.hash.ChunkId;

/**
 * The keyed half of the data path: a chunk's id (the dedup "hash compare", computed on the
 * plaintext before compression) and the sealing of its compressed bytes before coding. One instance
 * per app key and encryption; thread-safe. {@link #PLAIN} is the unencrypted path: SHA-256 ids and
 * no sealing.
 */
public interface ChunkCrypto {
  /** No key: SHA-256 content ids, payloads stored as compressed. */
  ChunkCrypto PLAIN = new ChunkCrypto() {
    @Override
    public Encryption encryption() {
      return Encryption.NONE;
    }

    @Override
    public String fingerprint() {
      return null;
    }

    @Override
    public ChunkId id(byte[] data, int offset, int length) {
      return ChunkId.of(data, offset, length);
    }

    @Override
    public byte[] seal(ChunkId id, byte[] data, int offset, int length) {
      throw new IllegalStateException("plaintext chunks are not sealed");
    }

    @Override
    public byte[] open(ChunkId id, byte[] sealed) throws CorruptDataException {
      throw new CorruptDataException("chunk " + id.shortHex() + " is encrypted; reading it needs the app's key");
    }
  };

  Encryption encryption();

  /** The key's fingerprint (not the key), or null for {@link #PLAIN}. */
  String fingerprint();

  /** The chunk id of {@code data[offset, offset+length)}: a keyed hash for encrypted apps. */
  ChunkId id(byte[] data, int offset, int length);

  /** Encrypts and authenticates the compressed chunk, bound to its id. */
  byte[] seal(ChunkId id, byte[] data, int offset, int length);

  /**
   * Decrypts a sealed payload of chunk {@code id}.
   *
   * @throws CorruptDataException if it was sealed under another key or id, or altered
   */
  byte[] open(ChunkId id, byte[] sealed) throws CorruptDataException;
}
