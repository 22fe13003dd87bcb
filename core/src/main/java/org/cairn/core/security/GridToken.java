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
 * The grid's shared secret. It guards the HTTP API ({@code Authorization: Bearer <token>}) and the
 * data plane (HMAC-SHA256 challenge). {@link #toString()} never shows it, so it cannot leak into logs.
 */
public final class GridToken {
  private static final int MIN_LENGTH = 16;

  private final byte[] secret;

  private GridToken(byte[] secret) {
    this.secret = secret;
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
    if (line.length() < MIN_LENGTH) {
      throw new IOException("token in " + file + " is too short: " + line.length() + " characters, need at least " + MIN_LENGTH);
    }
    return new GridToken(line.getBytes(StandardCharsets.UTF_8));
  }

  public static GridToken of(String token) {
    if (token == null || token.trim().length() < MIN_LENGTH) {
      throw new IllegalArgumentException("token must have at least " + MIN_LENGTH + " characters");
    }
    return new GridToken(token.trim().getBytes(StandardCharsets.UTF_8));
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
