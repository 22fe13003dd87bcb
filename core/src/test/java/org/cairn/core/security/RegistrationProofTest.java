package org.cairn.core.security;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class RegistrationProofTest {
  private static final long NOW = 1_800_000_000_000L;
  private final KeyPair peer = ec("secp256r1");
  private final String pub = Base64.getEncoder().encodeToString(peer.getPublic().getEncoded());

  private static KeyPair ec(String curve) {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec(curve));
      return g.generateKeyPair();
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  private String proof(KeyPair k, String id, String address, long at) {
    return RegistrationProof.sign(k.getPrivate(), id, address, pub, at);
  }

  @Test
  void aProofByTheRecordedKey_forThisIdAndAddress_isTaken() {
    String p = proof(peer, "d1", "10.0.0.5:7070", NOW - 1000);
    assertThatCode(() -> RegistrationProof.verify(pub, pub, p, "d1", "10.0.0.5:7070", NOW - 1000, NOW)).doesNotThrowAnyException();
  }

  @Test
  void aProofByAnotherKey_isRefused_evenWhenTheRequestNamesTheRecordedKey() {
    String p = proof(ec("secp256r1"), "d1", "10.0.0.5:7070", NOW);
    assertThatThrownBy(() -> RegistrationProof.verify(pub, pub, p, "d1", "10.0.0.5:7070", NOW, NOW))
        .isInstanceOf(RegistrationProof.Refused.class).hasMessageContaining("not a signature by peer d1");
  }

  @Test
  void aRequestWithAnotherKeyThanTheRecordedOne_isRefused() {
    KeyPair other = ec("secp256r1");
    String otherPub = Base64.getEncoder().encodeToString(other.getPublic().getEncoded());
    String p = RegistrationProof.sign(other.getPrivate(), "d1", "a:1", otherPub, NOW);
    assertThatThrownBy(() -> RegistrationProof.verify(pub, otherPub, p, "d1", "a:1", NOW, NOW))
        .isInstanceOf(RegistrationProof.Refused.class).hasMessageContaining("not the one peer d1 registered with");
  }

  @Test
  void aProofForAnotherIdAddressOrTime_isRefused() {
    String p = proof(peer, "d1", "a:1", NOW);
    assertThatThrownBy(() -> RegistrationProof.verify(pub, pub, p, "d2", "a:1", NOW, NOW)).isInstanceOf(RegistrationProof.Refused.class);
    assertThatThrownBy(() -> RegistrationProof.verify(pub, pub, p, "d1", "b:1", NOW, NOW)).isInstanceOf(RegistrationProof.Refused.class);
    assertThatThrownBy(() -> RegistrationProof.verify(pub, pub, p, "d1", "a:1", NOW + 1, NOW)).isInstanceOf(RegistrationProof.Refused.class);
  }

  @Test
  void aProofSignedOutsideTheWindow_isRefused_eitherWay() {
    long w = RegistrationProof.WINDOW.toMillis();
    String old = proof(peer, "d1", "a:1", NOW - w - 1);
    String future = proof(peer, "d1", "a:1", NOW + w + 1);
    assertThatThrownBy(() -> RegistrationProof.verify(pub, pub, old, "d1", "a:1", NOW - w - 1, NOW))
        .isInstanceOf(RegistrationProof.Refused.class).hasMessageContaining("check the peer's clock");
    assertThatThrownBy(() -> RegistrationProof.verify(pub, pub, future, "d1", "a:1", NOW + w + 1, NOW))
        .isInstanceOf(RegistrationProof.Refused.class);
    assertThatCode(() -> RegistrationProof.verify(pub, pub, proof(peer, "d1", "a:1", NOW - w), "d1", "a:1", NOW - w, NOW))
        .doesNotThrowAnyException();
  }

  @Test
  void missingOrMalformedFields_areRefused_neverThrownAsAnythingElse() {
    String p = proof(peer, "d1", "a:1", NOW);
    String[][] cases = {
        {null, pub, p, "d1", "a:1"}, {pub, null, p, "d1", "a:1"}, {pub, pub, null, "d1", "a:1"},
        {pub, pub, "%%%not base64", "d1", "a:1"}, {pub, pub, Base64.getEncoder().encodeToString(new byte[70]), "d1", "a:1"},
        {pub, pub, "A".repeat(100_000), "d1", "a:1"}, {pub, pub, p, null, "a:1"}, {pub, pub, p, "d1", null},
        {pub, pub, p, "d1\nx", "a:1"}, {"bm90IGEga2V5", "bm90IGEga2V5", p, "d1", "a:1"}};
    for (String[] c : cases) {
      assertThatThrownBy(() -> RegistrationProof.verify(c[0], c[1], c[2], c[3], c[4], NOW, NOW))
          .as("%s", (Object) c).isInstanceOf(RegistrationProof.Refused.class);
    }
    assertThatThrownBy(() -> RegistrationProof.verify(pub, pub, p, "d1", "a:1", null, NOW)).isInstanceOf(RegistrationProof.Refused.class);
  }

  @Test
  void aKeyOnAnotherCurve_isRefused() {
    KeyPair p384 = ec("secp384r1");
    String k = Base64.getEncoder().encodeToString(p384.getPublic().getEncoded());
    String p = RegistrationProof.sign(p384.getPrivate(), "d1", "a:1", k, NOW);
    assertThatThrownBy(() -> RegistrationProof.verify(k, k, p, "d1", "a:1", NOW, NOW))
        .isInstanceOf(RegistrationProof.Refused.class).hasMessageContaining("P-256");
  }
}
