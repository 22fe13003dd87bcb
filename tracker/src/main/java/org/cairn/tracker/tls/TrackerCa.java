package org.cairn.tracker.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.cairn.core.security.PinnedTrust;

/**
 * The tracker's own certificate authority. At the first start with TLS it makes an EC P-256 CA
 * ({@code DATA/tls/ca.key} 0600, {@code DATA/tls/ca.crt}, ten years) and writes its pin, the SHA-256
 * of the CA certificate, to {@code DATA/ca.sha256}: {@code token create} appends it to every token
 * ({@code #sha256:...}), so peers and clients pin the CA with no certificate step. The server
 * certificate is made anew at every start (one year), signed by the CA, for the names and addresses
 * the tracker may be reached by.
 */
public final class TrackerCa implements org.cairn.tracker.tls.PeerCertifier {
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final SecureRandom RANDOM = new SecureRandom();
  public static final String KEY_FILE = "ca.key";
  public static final String CERT_FILE = "ca.crt";

  private final PrivateKey caKey;
  private final PrivateKey serverKey;
  private final X509Certificate[] chain;
  private final String pin;

  private TrackerCa(PrivateKey caKey, PrivateKey serverKey, X509Certificate[] chain, String pin) {
    this.caKey = caKey;
    this.serverKey = serverKey;
    this.chain = chain;
    this.pin = pin;
  }

  /**
   * A peer's data-plane certificate (one year): its key, named by its id (subject
   * {@value PinnedTrust#PEER_PREFIX}ID and the URI {@value PinnedTrust#PEER_URI}ID) and the host it
   * advertised, for server authentication only. Clients check it names the address they dialled and,
   * knowing which peer they dial, that peer's id. An id that is not a plain peer id is refused (it
   * could otherwise add attributes to the subject).
   */
  @Override
  public Issued certify(String id, String host, String publicKey) throws IOException {
    if (id == null || !id.matches(PinnedTrust.PEER_ID)) {
      throw new IOException("cannot certify peer '" + id + "': a peer id is 1-64 letters, digits, '.', '_' or '-'");
    }
    try {
      java.security.PublicKey key = KeyFactory.getInstance("EC").generatePublic(
          new java.security.spec.X509EncodedKeySpec(Base64.getDecoder().decode(publicKey)));
      List<GeneralName> names = new ArrayList<>();
      names.add(new GeneralName(host.matches("[0-9.]+|.*:.*") ? GeneralName.iPAddress : GeneralName.dNSName, host));
      names.add(new GeneralName(GeneralName.uniformResourceIdentifier, PinnedTrust.PEER_URI + id));
      X509Certificate cert = sign(new JcaX509v3CertificateBuilder(chain[1], serial(), notBefore(), after(Duration.ofDays(365)),
          name("Cairn peer " + id), key)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new))), caKey);
      Base64.Encoder b64 = Base64.getEncoder();
      return new Issued(b64.encodeToString(cert.getEncoded()), b64.encodeToString(chain[1].getEncoded()));
    } catch (GeneralSecurityException | OperatorCreationException | IllegalArgumentException e) {
      throw new IOException("cannot certify the data-plane key of peer " + id + ": " + e.getMessage(), e);
    }
  }

  /** The CA of the tracker whose data directory is {@code data} (made if missing) and a fresh server certificate for {@code host}. */
  public static TrackerCa open(Path data, String host) throws IOException {
    try {
      Path dir = data.resolve("tls");
      if (!Files.exists(dir.resolve(KEY_FILE)) || !Files.exists(dir.resolve(CERT_FILE))) {
        create(dir);
      }
      PrivateKey caKey = Pem.readKey(dir.resolve(KEY_FILE));
      X509Certificate ca = Pem.readCert(dir.resolve(CERT_FILE));
      String pin = PinnedTrust.fingerprint(ca);
      Pem.writeAtomically(data.resolve("ca.sha256"), pin + "\n");
      KeyPair server = newKeyPair();
      X509Certificate leaf = sign(new JcaX509v3CertificateBuilder(ca, serial(), notBefore(), after(Duration.ofDays(365)),
          new X500Name(PinnedTrust.TRACKER), server.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
          .addExtension(Extension.subjectAlternativeName, false, altNames(host)), caKey);
      return new TrackerCa(caKey, server.getPrivate(), new X509Certificate[] {leaf, ca}, pin);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IOException("cannot make the tracker's TLS certificates in " + data + ": " + e.getMessage(), e);
    }
  }

  /**
   * Makes a new CA in {@code dir} ({@value #KEY_FILE} mode 0600, {@value #CERT_FILE}, ten years) and
   * returns its pin; refuses if {@code dir} already holds one.
   */
  public static String create(Path dir) throws IOException {
    try {
      Files.createDirectories(dir);
      if (Files.exists(dir.resolve(KEY_FILE)) || Files.exists(dir.resolve(CERT_FILE))) {
        throw new IOException(dir + " already holds a CA (" + KEY_FILE + ", " + CERT_FILE + "); it is not replaced");
      }
      KeyPair pair = newKeyPair();
      X509Certificate ca = sign(new JcaX509v3CertificateBuilder(name("Cairn grid CA"), serial(), notBefore(),
          after(Duration.ofDays(3650)), name("Cairn grid CA"), pair.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign)), pair.getPrivate());
      Pem.writeSecret(dir.resolve(KEY_FILE), Pem.pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
      Pem.writeAtomically(dir.resolve(CERT_FILE), Pem.pem("CERTIFICATE", ca.getEncoded()));
      return PinnedTrust.fingerprint(ca);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IOException("cannot make a CA in " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@code --tls-ca DIR}: makes the CA in {@code from} (from {@code cairn-tracker ca create}) this
   * tracker's, copying it into {@code DATA/tls}; a data directory that already holds another CA is
   * refused (its tokens pin that one). Returns the CA's pin.
   */
  public static String adopt(Path data, Path from) throws IOException {
    try {
      PrivateKey key = Pem.readKey(from.resolve(KEY_FILE));
      X509Certificate ca = Pem.readCert(from.resolve(CERT_FILE));
      if (!matches(key, ca)) {
        throw new IOException(from.resolve(KEY_FILE) + " is not the key of " + from.resolve(CERT_FILE));
      }
      Path dir = data.resolve("tls");
      String pin = PinnedTrust.fingerprint(ca);
      if (Files.exists(dir.resolve(CERT_FILE))) {
        String held = PinnedTrust.fingerprint(Pem.readCert(dir.resolve(CERT_FILE)));
        if (!held.equals(pin)) {
          throw new IOException(dir + " holds another CA (sha256:" + held.substring(0, 12) + "…) than --tls-ca " + from + " (sha256:"
              + pin.substring(0, 12) + "…); tokens handed out pin the one in " + dir + ": remove it only if no token pins it");
        }
        return pin;
      }
      Files.createDirectories(dir);
      Pem.writeSecret(dir.resolve(KEY_FILE), Pem.pem("PRIVATE KEY", key.getEncoded()));
      Pem.writeAtomically(dir.resolve(CERT_FILE), Pem.pem("CERTIFICATE", ca.getEncoded()));
      return pin;
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IOException("--tls-ca " + from + " has no " + e.getFile() + " (make the group's CA with 'cairn-tracker ca create --out DIR')", e);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IOException("--tls-ca " + from + " holds no usable CA: " + e.getMessage(), e);
    }
  }

  private static boolean matches(PrivateKey key, X509Certificate cert) throws GeneralSecurityException {
    java.security.Signature s = java.security.Signature.getInstance(SIGNATURE);
    byte[] probe = "cairn-ca-probe".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    s.initSign(key);
    s.update(probe);
    byte[] sig = s.sign();
    s.initVerify(cert.getPublicKey());
    s.update(probe);
    return s.verify(sig);
  }

  /**
   * A tracker group member's certificate for its Raft traffic (one year): subject
   * {@value MemberTrust#PREFIX}ID, for both ends of a mutually authenticated connection, naming the
   * host the group reaches it at (and this machine's names and addresses).
   */
  public MemberKeys member(String id, String host) throws IOException {
    try {
      KeyPair pair = newKeyPair();
      X509Certificate cert = sign(new JcaX509v3CertificateBuilder(chain[1], serial(), notBefore(), after(Duration.ofDays(365)),
          new X500Name(MemberTrust.PREFIX + id), pair.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false,
              new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
          .addExtension(Extension.subjectAlternativeName, false, altNames(host)), caKey);
      return new MemberKeys(pair.getPrivate(), new X509Certificate[] {cert, chain[1]});
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IOException("cannot make member " + id + "'s certificate: " + e.getMessage(), e);
    }
  }

  /** A key and its certificate chain (the certificate, then the CA's). */
  public record MemberKeys(PrivateKey key, X509Certificate[] chain) {
  }

  public PrivateKey serverKey() {
    return serverKey;
  }

  /** The server certificate, then the CA's. */
  public X509Certificate[] chain() {
    return chain.clone();
  }

  /** SHA-256 of the CA certificate, 64 hex digits. */
  public String pin() {
    return pin;
  }

  private static KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return g.generateKeyPair();
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey key)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder(SIGNATURE).build(key)));
  }

  /** Every name the tracker may be reached by: the listen host, this host's names, localhost and every local address. */
  private static GeneralNames altNames(String host) throws IOException {
    Set<String> dns = new LinkedHashSet<>(List.of("localhost"));
    Set<String> ips = new LinkedHashSet<>();
    if (host != null && !host.isBlank() && !host.equals("0.0.0.0") && !host.equals("::")) {
      (host.matches("[0-9.]+|.*:.*") ? ips : dns).add(host);
    }
    try {
      dns.add(InetAddress.getLocalHost().getHostName());
    } catch (IOException e) {
      // no resolvable host name: addresses only
    }
    for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress a : Collections.list(ni.getInetAddresses())) {
        String text = a.getHostAddress();
        int zone = text.indexOf('%');
        ips.add(zone < 0 ? text : text.substring(0, zone));
      }
    }
    List<GeneralName> names = new ArrayList<>();
    dns.forEach(d -> names.add(new GeneralName(GeneralName.dNSName, d)));
    ips.forEach(i -> names.add(new GeneralName(GeneralName.iPAddress, i)));
    return new GeneralNames(names.toArray(GeneralName[]::new));
  }

  private static X500Name name(String cn) {
    return new X500Name("CN=" + cn);
  }

  private static BigInteger serial() {
    return new BigInteger(64, RANDOM).add(BigInteger.ONE);
  }

  private static Date notBefore() {
    return Date.from(Instant.now().minus(Duration.ofHours(1))); // clocks of peers may be a little behind
  }

  private static Date after(Duration d) {
    return Date.from(Instant.now().plus(d));
  }

}
