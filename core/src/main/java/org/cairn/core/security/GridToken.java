package org.cairn.core.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A grid credential. It guards the HTTP API ({@code Authorization: Bearer <token>}) and the
 * data plane (HMAC-SHA256 challenge). {@link #toString()} never shows it, so it cannot leak into logs.
 *
 * <p>A token's text may end with {@code #sha256:<64 hex>}, the SHA-256 fingerprint of the tracker's
 * CA certificate: whoever holds the token then pins that CA without a separate certificate step
 * (kubeadm's {@code --discovery-token-ca-cert-hash}). The pin is not part of the secret.
 */
public final class GridToken {
  private static final int MIN_LENGTH = 16;
  private static final String PIN_MARK = "#sha256:";

  private final byte[] secret;
  private final String caPin;

  private GridToken(String text) {
    int mark = text.lastIndexOf(PIN_MARK);
    String pin = null;
    String body = text;
    if (mark >= 0) {
      pin = text.substring(mark + PIN_MARK.length()).toLowerCase(java.util.Locale.ROOT);
      if (!pin.matches("[0-9a-f]{64}")) {
        throw new IllegalArgumentException("has a malformed CA pin (need #sha256: and 64 hex digits)");
      }
      body = text.substring(0, mark);
    }
    if (body.length() < MIN_LENGTH) {
      throw new IllegalArgumentException("is too short: " + body.length() + " characters, need at least " + MIN_LENGTH);
    }
    this.secret = body.getBytes(StandardCharsets.UTF_8);
    this.caPin = pin;
  }

  /** Reads the token from the first line of a file (surrounding whitespace ignored). */
  public static GridToken readFile(Path file) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "token file not found");
    }
    String line = text.lines().findFirst().orElse("").trim();
    try {
      return new GridToken(line);
    } catch (IllegalArgumentException e) {
      throw new IOException("token in " + file + " " + e.getMessage());
    }
  }

  public static GridToken of(String token) {
    if (token == null) {
      throw new IllegalArgumentException("token must have at least " + MIN_LENGTH + " characters");
    }
    try {
      return new GridToken(token.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("token " + e.getMessage(), e);
    }
  }

  /** The tracker CA's SHA-256 fingerprint (64 lower-case hex digits) the token carries, if any. */
  public java.util.Optional<String> caPin() {
    return java.util.Optional.ofNullable(caPin);
  }

  /** This token's text with the given CA pin appended (replacing any it had): what a token file holds. */
  public String withCaPin(String sha256Hex) {
    return new GridToken(bearerValue() + PIN_MARK + sha256Hex).text();
  }

  /** The token's full text as written in a token file: the secret, then its CA pin if it has one. */
  public String text() {
    return caPin == null ? bearerValue() : bearerValue() + PIN_MARK + caPin;
  }

  /** A new random token (for local grids and tests): 32 random bytes, hex. */
  public static String generate() {
    byte[] b = new byte[32];
    new java.security.SecureRandom().nextBytes(b);
    return java.util.HexFormat.of().formatHex(b);
  }

  /** The value to send as {@code Authorization: Bearer ...}. */
  public String bearerValue() {
    return new String(secret, StandardCharsets.UTF_8);
  }

  /** Constant-time check of a presented {@code Authorization} header value. */
  public boolean matchesAuthorization(String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] presented = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(presented, secret);
  }

  /** HMAC-SHA256 of {@code challenge} with the token as key (the data plane's proof of the token). */
  public byte[] hmac(byte[] challenge) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(challenge);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java platform", e);
    }
  }

  /** Constant-time check of a presented HMAC. */
  public boolean verifyHmac(byte[] challenge, byte[] presented) {
    return MessageDigest.isEqual(hmac(challenge), presented);
  }

  @Override
  public String toString() {
    return "GridToken[redacted]";
  }
}
