package org.cairn.peer;

import io.netty.handler.ssl.SslContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import org.cairn.core.net.DataTls;
import org.cairn.core.security.PinnedTrust;

/**
 * A peer's data-plane TLS on a grid whose tracker runs with {@code --tls}: an EC key made at the
 * first start ({@code DATA/tls/peer.key}, 0600), the certificate the tracker's CA signs for it at
 * every registration ({@code DATA/tls/peer.crt}, with {@code ca.crt}), and the server context built
 * from them. Until the first registration there is no certificate and the data server refuses
 * connections; after a restart the stored one serves at once.
 */
final class PeerTls {
  private final Path dir;
  private final String caPin;
  private final PrivateKey key;
  private final PublicKey publicKey;
  private volatile SslContext server;

  private PeerTls(Path dir, String caPin, PrivateKey key, PublicKey publicKey) {
    this.dir = dir;
    this.caPin = caPin;
    this.key = key;
    this.publicKey = publicKey;
  }

  /** The TLS state of the peer whose data directory is {@code data}, pinning the CA {@code caPin}. */
  static PeerTls open(Path data, String caPin) throws IOException {
    Path dir = data.resolve("tls");
    Files.createDirectories(dir);
    try {
      Path keyFile = dir.resolve("peer.key");
      Path pubFile = dir.resolve("peer.pub");
      KeyFactory ec = KeyFactory.getInstance("EC");
      PrivateKey key;
      PublicKey pub;
      if (Files.exists(keyFile) && Files.exists(pubFile)) {
        key = ec.generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(Files.readString(keyFile).strip())));
        pub = ec.generatePublic(new X509EncodedKeySpec(Base64.getMimeDecoder().decode(Files.readString(pubFile).strip())));
      } else {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = g.generateKeyPair();
        key = pair.getPrivate();
        pub = pair.getPublic();
        write(keyFile, Base64.getEncoder().encodeToString(key.getEncoded()), true);
        write(pubFile, Base64.getEncoder().encodeToString(pub.getEncoded()), false);
      }
      PeerTls tls = new PeerTls(dir, caPin, key, pub);
      Path cert = dir.resolve("peer.crt");
      Path ca = dir.resolve("ca.crt");
      if (Files.exists(cert) && Files.exists(ca)) {
        tls.serve(Files.readString(cert).strip(), Files.readString(ca).strip());
      }
      return tls;
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IOException("the peer's TLS key in " + dir + " is unusable: " + e.getMessage() + " (delete the tls directory to make a new one)", e);
    }
  }

  /** The public key the tracker is asked to certify (base64 SubjectPublicKeyInfo). */
  String publicKey() {
    return Base64.getEncoder().encodeToString(publicKey.getEncoded());
  }

  /** This key's proof that it registers peer {@code id} at {@code address}, signed at {@code atMillis}. */
  String proveKey(String id, String address, long atMillis) {
    return org.cairn.core.security.RegistrationProof.sign(key, id, address, publicKey(), atMillis);
  }

  String caPin() {
    return caPin;
  }

  /** The server context, or null before the first certificate. */
  SslContext server() {
    return server;
  }

  /** Takes the certificate a registration brought (base64 DER, with the CA's), keeps it, and serves with it. */
  void adopt(String certificate, String caCertificate) throws IOException {
    serve(certificate, caCertificate);
    write(dir.resolve("peer.crt"), certificate, false);
    write(dir.resolve("ca.crt"), caCertificate, false);
  }

  private void serve(String certificate, String caCertificate) throws IOException {
    try {
      CertificateFactory x509 = CertificateFactory.getInstance("X.509");
      X509Certificate cert = (X509Certificate) x509.generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(certificate)));
      X509Certificate ca = (X509Certificate) x509.generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(caCertificate)));
      new PinnedTrust(caPin).check(new X509Certificate[] {cert, ca}); // from the CA our token pins, or not used
      if (!cert.getPublicKey().equals(publicKey)) {
        throw new IOException("the tracker certified another key than this peer's");
      }
      server = DataTls.server(key, cert, ca);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IOException("the data-plane certificate from the tracker is unusable: " + e.getMessage(), e);
    }
  }

  private static void write(Path f, String text, boolean secret) throws IOException {
    Path tmp = Files.createTempFile(f.getParent(), f.getFileName().toString(), ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--")));
    try {
      Files.writeString(tmp, text + "\n");
      Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
