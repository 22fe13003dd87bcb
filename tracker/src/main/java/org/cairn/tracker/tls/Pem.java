package org.cairn.tracker.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** PEM files of keys and certificates, each written whole under its final name (keys mode 0600). */
final class Pem {
  private Pem() {
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  static byte[] unpem(Path f) throws IOException {
    String text = Files.readString(f, StandardCharsets.US_ASCII).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return Base64.getDecoder().decode(text);
  }

  static PrivateKey readKey(Path f) throws IOException, GeneralSecurityException {
    return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(unpem(f)));
  }

  static X509Certificate readCert(Path f) throws IOException, GeneralSecurityException {
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new java.io.ByteArrayInputStream(unpem(f)));
  }

  static void writeSecret(Path f, String text) throws IOException {
    Path tmp = Files.createTempFile(f.getParent(), f.getFileName().toString(), ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(tmp, text, StandardCharsets.US_ASCII);
      Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static void writeAtomically(Path f, String text) throws IOException {
    Path tmp = Files.createTempFile(f.getParent(), f.getFileName().toString(), ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.US_ASCII);
      Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
