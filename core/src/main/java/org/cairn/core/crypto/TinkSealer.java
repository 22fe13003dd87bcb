package org.cairn.core.crypto;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.DeterministicAead;
import java.security.GeneralSecurityException;

/** A Tink AEAD or deterministic AEAD primitive as one seal/open pair. */
interface TinkSealer {
  byte[] seal(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException;

  byte[] open(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException;

  static TinkSealer of(Aead aead) {
    return new TinkSealer() {
      @Override
      public byte[] seal(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
        return aead.encrypt(plaintext, associatedData);
      }

      @Override
      public byte[] open(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
        return aead.decrypt(ciphertext, associatedData);
      }
    };
  }

  static TinkSealer of(DeterministicAead daead) {
    return new TinkSealer() {
      @Override
      public byte[] seal(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
        return daead.encryptDeterministically(plaintext, associatedData);
      }

      @Override
      public byte[] open(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
        return daead.decryptDeterministically(ciphertext, associatedData);
      }
    };
  }
}
