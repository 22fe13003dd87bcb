package org.cairn.cli.startup;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The JDK's loops over every byte of a chunk, run a few times on a few KiB at a one-command process's
 * start (on {@link Preload}'s thread), so the compilations that bring in their intrinsics (SHA-NI for
 * the keyed chunk id, AES-NI and carry-less multiply for AES-GCM) are asked for before the first chunk
 * is read instead of after its first megabytes ran through the interpreter. Which methods compile early
 * is {@code cairn-oneshot.jit}'s (the launcher's); this only makes them run. Throw-away key, nothing kept.
 */
final class Kernels {
  private static final int ROUNDS = 12;
  private static final int BYTES = 4096;

  private Kernels() {}

  /** Runs the loops; returns whether every round sealed and opened its bytes back (false: the JDK lacks one). */
  static boolean warm() {
    try {
      byte[] data = new byte[BYTES];
      byte[] key = new byte[32];
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      SecretKeySpec aes = new SecretKeySpec(key, "AES");
      for (int i = 0; i < ROUNDS; i++) {
        data[0] = (byte) i;
        mac.update(data);
        mac.doFinal();
        byte[] nonce = new byte[12];
        nonce[0] = (byte) i;
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding");
        enc.init(Cipher.ENCRYPT_MODE, aes, new GCMParameterSpec(128, nonce));
        byte[] sealed = enc.doFinal(data);
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding");
        dec.init(Cipher.DECRYPT_MODE, aes, new GCMParameterSpec(128, nonce));
        if (!java.util.Arrays.equals(dec.doFinal(sealed), data)) {
          return false;
        }
      }
      return true;
    } catch (GeneralSecurityException e) {
      return false; // a JDK without these: the command meets it itself where it is reported
    }
  }
}
