package org.cairn.core.crypto;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import org.cairn.core.CorruptDataException;
import org.cairn.core.hash.ChunkId;

/**
 * Chunk ids and sealing under one app key: id = HMAC-SHA256 (Tink PRF) of the plaintext chunk;
 * the compressed chunk is sealed by Tink with the id as associated data, so a payload cannot be
 * passed off as another chunk's.
 */
final class KeyedChunks implements ChunkCrypto {
  private final Encryption encryption;
  private final String fingerprint;
  private final IdPrf prf;
  private final TinkSealer sealer;

  KeyedChunks(Encryption encryption, String fingerprint, IdPrf prf, TinkSealer sealer) {
    this.encryption = encryption;
    this.fingerprint = fingerprint;
    this.prf = prf;
    this.sealer = sealer;
  }

  @Override
  public Encryption encryption() {
    return encryption;
  }

  @Override
  public String fingerprint() {
    return fingerprint;
  }

  @Override
  public ChunkId id(byte[] data, int offset, int length) {
    return prf.id(data, offset, length);
  }

  @Override
  public byte[] seal(ChunkId id, byte[] data, int offset, int length) {
    try {
      return sealer.seal(exact(data, offset, length), id.toBytes());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing chunk " + id.shortHex() + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] open(ChunkId id, byte[] sealed) throws CorruptDataException {
    try {
      return sealer.open(sealed, id.toBytes());
    } catch (GeneralSecurityException e) {
      throw new CorruptDataException("chunk " + id.shortHex() + " does not decrypt with key " + fingerprint
          + " (" + encryption.spec() + "): it was altered, or sealed under another key");
    }
  }

  /** Tink takes whole arrays: the chunk itself when it fills its buffer, else a copy. */
  static byte[] exact(byte[] data, int offset, int length) {
    return offset == 0 && length == data.length ? data : Arrays.copyOfRange(data, offset, offset + length);
  }
}
