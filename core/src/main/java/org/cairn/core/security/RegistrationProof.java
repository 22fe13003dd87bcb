package org.cairn.core.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;

/**
 * A peer's proof that it holds the private half of the data-plane key it registered with: an ECDSA
 * (P-256, SHA-256) signature over the peer's id, its address, that public key and the time it signed.
 * With it, a peer whose first registration answer was lost (the tracker spent the enrollment token's use
 * and issued a credential the peer never got) registers again with the same enrollment token: the tracker
 * takes the proof for the key it recorded, issues a new credential and revokes the lost one. The id and
 * the public key alone prove nothing: both are public (the key is in the peer's certificate).
 *
 * <p>The signed time must be within {@link #WINDOW} of the tracker's clock, and the tracker takes each
 * time at most once per peer, so a proof cannot be replayed later.
 */
public final class RegistrationProof {
  /** How far the signed time may be from the tracker's clock, either way. */
  public static final Duration WINDOW = Duration.ofMinutes(5);
  /** The longest proof taken (a DER P-256 signature is at most 72 bytes; base64 96 characters). */
  static final int MAX_PROOF_CHARS = 256;
  /** The longest public key taken (a P-256 SubjectPublicKeyInfo is 91 bytes; base64 124 characters). */
  static final int MAX_KEY_CHARS = 1024;
  private static final String ALGORITHM = "SHA256withECDSA";
  private static final String CONTEXT = "cairn peer registration proof v1";

  private RegistrationProof() {}

  /** The proof that the holder of {@code key} registers peer {@code id} at {@code address} with {@code publicKey}. */
  public static String sign(PrivateKey key, String id, String address, String publicKey, long atMillis) {
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initSign(key);
      s.update(message(id, address, publicKey, atMillis));
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign a registration proof with this key: " + e.getMessage(), e);
    }
  }

  /**
   * Checks a proof; throws {@link Refused} saying why it is not taken. {@code recordedKey} is the key
   * the tracker recorded for the peer at its earlier registration; the request must carry the same.
   */
  public static void verify(String recordedKey, String presentedKey, String proof, String id, String address, Long atMillis,
      long nowMillis) throws Refused {
    if (recordedKey == null) {
      throw new Refused("no data-plane key was recorded for peer " + id + " (a grid without TLS)");
    }
    if (presentedKey == null || proof == null || atMillis == null) {
      throw new Refused("the registration carries no proof of peer " + id + "'s key");
    }
    if (!recordedKey.equals(presentedKey)) {
      throw new Refused("the registration's key is not the one peer " + id + " registered with");
    }
    if (Math.abs(nowMillis - atMillis) > WINDOW.toMillis()) {
      throw new Refused("the proof was signed at " + atMillis + ", more than " + WINDOW.toMinutes()
          + " minutes from the tracker's clock (" + nowMillis + "); check the peer's clock");
    }
    if (proof.length() > MAX_PROOF_CHARS || presentedKey.length() > MAX_KEY_CHARS) {
      throw new Refused("the proof or the key is longer than any P-256 one");
    }
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initVerify(publicKey(presentedKey));
      s.update(message(id, address, presentedKey, atMillis));
      if (!s.verify(Base64.getDecoder().decode(proof))) {
        throw new Refused("the proof is not a signature by peer " + id + "'s key");
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new Refused("the proof or the key is malformed: " + e.getMessage());
    }
  }

  private static PublicKey publicKey(String base64) throws GeneralSecurityException {
    PublicKey k = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
    if (!(k instanceof ECPublicKey ec) || ec.getParams().getCurve().getField().getFieldSize() != 256) {
      throw new GeneralSecurityException("not a P-256 key");
    }
    return k;
  }

  private static byte[] message(String id, String address, String publicKey, long atMillis) {
    // newline-separated: none of the fields may hold one (ids and addresses are checked, keys are base64)
    for (String f : new String[] {id, address, publicKey}) {
      if (f == null || f.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("a registration proof's field is missing or holds a newline");
      }
    }
    return (CONTEXT + "\n" + id + "\n" + address + "\n" + publicKey + "\n" + atMillis).getBytes(StandardCharsets.UTF_8);
  }

  /** A proof not taken, with the reason. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    public Refused(String reason) {
      super(reason);
    }
  }
}
