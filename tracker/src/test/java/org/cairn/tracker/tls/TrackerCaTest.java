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

  private static X509Certificate[] peerChain(TrackerCa ca, String id, String host) throws Exception {
    java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("EC");
    g.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
    var issued = ca.certify(id, host, java.util.Base64.getEncoder().encodeToString(g.generateKeyPair().getPublic().getEncoded()));
    var x509 = java.security.cert.CertificateFactory.getInstance("X.509");
    return new X509Certificate[] {
        (X509Certificate) x509.generateCertificate(new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(issued.certificate()))),
        (X509Certificate) x509.generateCertificate(new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(issued.caCertificate())))};
  }

  @Test
  void eachPlaneTakesOnlyItsOwnKindOfCertificate_soADonorCannotPassForTheTracker() throws Exception {
    TrackerCa ca = TrackerCa.open(dir.resolve("ca"), "127.0.0.1");
    X509Certificate[] donor = peerChain(ca, "p1", "127.0.0.1");
    PinnedTrust control = new PinnedTrust(ca.pin());
    PinnedTrust data = new PinnedTrust(ca.pin(), true);
    control.checkRole(ca.chain());
    assertThatThrownBy(() -> control.checkServerTrusted(donor, "EC", (javax.net.ssl.SSLEngine) null))
        .isInstanceOf(CertificateException.class).hasMessageContaining("not for the tracker");
    data.checkRole(donor);
    assertThatThrownBy(() -> data.checkRole(ca.chain())).isInstanceOf(CertificateException.class).hasMessageContaining("not for a peer");
    X509Certificate[] member = ca.member("t1", "127.0.0.1").chain();
    assertThatThrownBy(() -> control.checkRole(member)).isInstanceOf(CertificateException.class);
    assertThatThrownBy(() -> data.checkRole(member)).isInstanceOf(CertificateException.class);
  }

  @Test
  void groupMembersTrustOnlyEachOthersMemberCertificates() throws Exception {
    TrackerCa ca = TrackerCa.open(dir.resolve("ca"), "127.0.0.1");
    MemberTrust trust = new MemberTrust(ca.chain()[1], java.util.Set.of("t1", "t2", "t3"));
    X509Certificate[] t2 = ca.member("t2", "10.1.2.3").chain();
    trust.checkClientTrusted(t2, "EC");
    trust.checkServerTrusted(t2, "EC");
    assertThat(t2[0].getSubjectAlternativeNames()).anySatisfy(n -> assertThat(n.get(1)).isEqualTo("10.1.2.3"));
    assertThat(trust.getAcceptedIssuers()).containsExactly(ca.chain()[1]);

    // a donor's and the HTTPS certificate come from the same CA but are not members'
    assertThatThrownBy(() -> trust.checkClientTrusted(peerChain(ca, "t2", "127.0.0.1"), "EC"))
        .isInstanceOf(CertificateException.class).hasMessageContaining("not for a member");
    assertThatThrownBy(() -> trust.checkClientTrusted(ca.chain(), "EC")).isInstanceOf(CertificateException.class);
    // a member the group does not list, and a member of another group's CA
    assertThatThrownBy(() -> trust.checkClientTrusted(ca.member("t9", "127.0.0.1").chain(), "EC"))
        .isInstanceOf(CertificateException.class).hasMessageContaining("t1, t2, t3");
    TrackerCa other = TrackerCa.open(dir.resolve("other"), "127.0.0.1");
    assertThatThrownBy(() -> trust.checkServerTrusted(other.member("t1", "127.0.0.1").chain(), "EC"))
        .isInstanceOf(CertificateException.class).hasMessageContaining("not from the CA");
    assertThatThrownBy(() -> trust.checkClientTrusted(new X509Certificate[0], "EC")).isInstanceOf(CertificateException.class);
  }

  @Test
  void aGroupsCaIsMadeOnce_andAdoptedByEachMember_butNeverOverAnother() throws Exception {
    Path shared = dir.resolve("group-ca");
    String pin = TrackerCa.create(shared);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(shared.resolve("ca.key")))).isEqualTo("rw-------");
    assertThatThrownBy(() -> TrackerCa.create(shared)).isInstanceOf(java.io.IOException.class).hasMessageContaining("already holds a CA");

    assertThat(TrackerCa.adopt(dir.resolve("m1"), shared)).isEqualTo(pin);
    assertThat(TrackerCa.adopt(dir.resolve("m1"), shared)).as("again: the same CA is kept").isEqualTo(pin);
    assertThat(TrackerCa.open(dir.resolve("m1"), "127.0.0.1").pin()).isEqualTo(pin);
    assertThat(TrackerCa.adopt(dir.resolve("m2"), shared)).isEqualTo(pin);
    assertThat(TrackerCa.open(dir.resolve("m2"), "127.0.0.1").pin()).as("every member serves under one pin").isEqualTo(pin);

    TrackerCa.open(dir.resolve("own"), "127.0.0.1"); // a tracker that made its own CA at an earlier start
    assertThatThrownBy(() -> TrackerCa.adopt(dir.resolve("own"), shared)).isInstanceOf(java.io.IOException.class)
        .hasMessageContaining("holds another CA");
    Path mixed = Files.createDirectories(dir.resolve("mixed"));
    Files.copy(shared.resolve("ca.crt"), mixed.resolve("ca.crt"));
    Files.copy(dir.resolve("own/tls/ca.key"), mixed.resolve("ca.key"));
    assertThatThrownBy(() -> TrackerCa.adopt(dir.resolve("m3"), mixed)).isInstanceOf(java.io.IOException.class)
        .hasMessageContaining("is not the key of");
    assertThatThrownBy(() -> TrackerCa.adopt(dir.resolve("m3"), dir.resolve("nothing"))).isInstanceOf(java.io.IOException.class)
        .hasMessageContaining("ca create");
    assertThat(dir.resolve("m3/tls/ca.key")).doesNotExist();
  }
}
