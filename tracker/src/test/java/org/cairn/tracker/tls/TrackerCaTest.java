package org.cairn.tracker.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import org.cairn.core.security.PinnedTrust;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrackerCaTest {
  @TempDir
  Path dir;

  @Test
  void theCaIsMadeOnce_keptPrivate_andSignsAFreshServerCertificateAtEachStart() throws Exception {
    TrackerCa first = TrackerCa.open(dir.resolve("a"), "127.0.0.1");
    TrackerCa second = TrackerCa.open(dir.resolve("a"), "127.0.0.1");
    assertThat(second.pin()).isEqualTo(first.pin()).matches("[0-9a-f]{64}");
    assertThat(Files.readString(dir.resolve("a/ca.sha256")).strip()).isEqualTo(first.pin());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/tls/ca.key")))).isEqualTo("rw-------");
    assertThat(second.chain()[0].getSerialNumber()).isNotEqualTo(first.chain()[0].getSerialNumber());
    assertThat(second.chain()[0].getSubjectAlternativeNames()).anySatisfy(n -> assertThat(n.get(1)).isEqualTo("127.0.0.1"));

    PinnedTrust trust = new PinnedTrust(first.pin());
    trust.check(second.chain());
    trust.check(first.chain());
  }

  @Test
  void aCertificateFromAnotherCa_orWithoutItsCa_isRefused() throws Exception {
    TrackerCa ours = TrackerCa.open(dir.resolve("ours"), "localhost");
    TrackerCa theirs = TrackerCa.open(dir.resolve("theirs"), "localhost");
    PinnedTrust trust = new PinnedTrust(ours.pin());
    assertThatThrownBy(() -> trust.check(theirs.chain())).isInstanceOf(CertificateException.class)
        .hasMessageContaining("not from the CA the token pins");
    assertThatThrownBy(() -> trust.check(new X509Certificate[] {ours.chain()[0]})).isInstanceOf(CertificateException.class);
    // their server certificate presented beside our CA: the signature does not verify
    assertThatThrownBy(() -> trust.check(new X509Certificate[] {theirs.chain()[0], ours.chain()[1]}))
        .isInstanceOf(CertificateException.class).hasMessageContaining("not signed by the pinned CA");
    assertThatThrownBy(() -> new PinnedTrust("abc")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPeersKeyIsCertifiedForItsAddressOnly() throws Exception {
    TrackerCa ca = TrackerCa.open(dir.resolve("ca"), "127.0.0.1");
    java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("EC");
    g.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
    java.security.KeyPair peer = g.generateKeyPair();
    var issued = ca.certify("p1", "10.0.0.7", java.util.Base64.getEncoder().encodeToString(peer.getPublic().getEncoded()));
    var x509 = java.security.cert.CertificateFactory.getInstance("X.509");
    X509Certificate cert = (X509Certificate) x509.generateCertificate(
        new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(issued.certificate())));
    X509Certificate caCert = (X509Certificate) x509.generateCertificate(
        new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(issued.caCertificate())));
    assertThat(cert.getPublicKey()).isEqualTo(peer.getPublic());
    new PinnedTrust(ca.pin()).check(new X509Certificate[] {cert, caCert});
    PinnedTrust.requireNames(cert, "10.0.0.7");
    assertThatThrownBy(() -> PinnedTrust.requireNames(cert, "10.0.0.8")).isInstanceOf(CertificateException.class);
    assertThatThrownBy(() -> ca.certify("p1", "10.0.0.7", "not base64!")).isInstanceOf(java.io.IOException.class);
  }
}
