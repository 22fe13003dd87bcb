package org.cairn.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

class AppKeyTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private final AppKey key = AppKey.generate("heat", NOW);
  private final byte[] chunk = new byte[100_000];

  AppKeyTest() {
    new Random(18).nextBytes(chunk);
  }

  @Test
  void sealThenOpen_roundTrips_underBothEncryptions() throws CorruptDataException {
    for (Encryption e : new Encryption[] {Encryption.AES_GCM, Encryption.AES_SIV}) {
      ChunkCrypto c = key.crypto(e);
      ChunkId id = c.id(chunk, 0, chunk.length);
      byte[] sealed = c.seal(id, chunk, 0, chunk.length);
      assertThat(sealed).as(e.spec()).isNotEqualTo(chunk);
      assertThat(c.open(id, sealed)).as(e.spec()).isEqualTo(chunk);
      assertThat(c.encryption()).isEqualTo(e);
      assertThat(c.fingerprint()).isEqualTo(key.fingerprint());
    }
  }

  @Test
  void sealing_partOfABuffer_sealsJustThatPart() throws CorruptDataException {
    ChunkCrypto c = key.crypto(Encryption.AES_GCM);
    ChunkId id = c.id(chunk, 10, 500);
    assertThat(c.open(id, c.seal(id, chunk, 10, 500))).isEqualTo(java.util.Arrays.copyOfRange(chunk, 10, 510));
  }

  @Test
  void ids_areDeterministicUnderOneKey_andDifferAcrossKeysAndFromSha256() {
    ChunkCrypto c = key.crypto(Encryption.AES_GCM);
    ChunkId a = c.id(chunk, 0, chunk.length);
    assertThat(c.id(chunk.clone(), 0, chunk.length)).isEqualTo(a);
    assertThat(key.crypto(Encryption.AES_SIV).id(chunk, 0, chunk.length)).as("ids depend on the key, not the sealing").isEqualTo(a);
    ChunkId other = AppKey.generate("heat", NOW).crypto(Encryption.AES_GCM).id(chunk, 0, chunk.length);
    assertThat(other).isNotEqualTo(a);
    assertThat(ChunkId.of(chunk)).isNotEqualTo(a);
  }

  @Test
  void siv_isDeterministic() {
    ChunkCrypto c = key.crypto(Encryption.AES_SIV);
    ChunkId id = c.id(chunk, 0, chunk.length);
    assertThat(c.seal(id, chunk, 0, chunk.length)).isEqualTo(c.seal(id, chunk, 0, chunk.length));
  }

  @Test
  void tampering_anyByte_isCorruptData() {
    Random random = new Random(7);
    for (Encryption e : new Encryption[] {Encryption.AES_GCM, Encryption.AES_SIV}) {
      ChunkCrypto c = key.crypto(e);
      ChunkId id = c.id(chunk, 0, chunk.length);
      byte[] sealed = c.seal(id, chunk, 0, chunk.length);
      for (int i = 0; i < 20; i++) {
        byte[] bad = sealed.clone();
        bad[random.nextInt(bad.length)] ^= (byte) (1 << random.nextInt(8));
        assertThatThrownBy(() -> c.open(id, bad)).as(e.spec()).isInstanceOf(CorruptDataException.class)
            .hasMessageContaining("does not decrypt with key " + key.fingerprint());
      }
    }
  }

  @Test
  void openingUnderAnotherIdOrKey_isCorruptData() {
    ChunkCrypto c = key.crypto(Encryption.AES_GCM);
    ChunkId id = c.id(chunk, 0, chunk.length);
    byte[] sealed = c.seal(id, chunk, 0, chunk.length);
    ChunkId otherId = c.id(new byte[] {1}, 0, 1);
    assertThatThrownBy(() -> c.open(otherId, sealed)).isInstanceOf(CorruptDataException.class);
    ChunkCrypto wrong = AppKey.generate("heat", NOW).crypto(Encryption.AES_GCM);
    assertThatThrownBy(() -> wrong.open(id, sealed)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("sealed under another key");
  }

  @Test
  void json_roundTrips_withTheSameFingerprintAndIds() throws IOException {
    String json = key.toJson();
    AppKey back = AppKey.fromJson(json, "heat.json");
    assertThat(back.fingerprint()).isEqualTo(key.fingerprint()).hasSize(16);
    assertThat(back.app()).isEqualTo("heat");
    assertThat(back.created()).isEqualTo(NOW);
    ChunkId id = key.crypto(Encryption.AES_GCM).id(chunk, 0, chunk.length);
    assertThat(back.crypto(Encryption.AES_GCM).id(chunk, 0, chunk.length)).isEqualTo(id);
    assertThat(AppKey.generate("heat", NOW).fingerprint()).isNotEqualTo(key.fingerprint());
  }

  @Test
  void theFingerprint_isNotPartOfAnyKeyMaterial() {
    // the fingerprint is shown and recorded in manifests: it must not be a prefix of the secret bytes
    String json = key.toJson();
    int at = json.indexOf(key.fingerprint());
    assertThat(json.indexOf(key.fingerprint(), at + 1)).isEqualTo(-1);
  }

  @Test
  void fromJson_refusesOtherFilesWithTheirName() {
    assertThatThrownBy(() -> AppKey.fromJson("{}", "/k/heat.json")).hasMessageContaining("/k/heat.json is not a Cairn key file");
    assertThatThrownBy(() -> AppKey.fromJson("nope", "/k/heat.json")).hasMessageContaining("/k/heat.json is not a Cairn key file");
    String altered = key.toJson().replace(key.fingerprint(), "0000000000000000");
    assertThatThrownBy(() -> AppKey.fromJson(altered, "x.json")).hasMessageContaining("altered");
    String noKeys = key.toJson().replace("\"stream\"", "\"streamx\"");
    assertThatThrownBy(() -> AppKey.fromJson(noKeys, "x.json")).hasMessageContaining("holds no valid key");
  }

  @Test
  void aVersion1KeyFile_isRefusedWithItsVersion() {
    String v1 = key.toJson().replace("\"version\" : 2", "\"version\" : 1");
    assertThat(v1).isNotEqualTo(key.toJson());
    assertThatThrownBy(() -> AppKey.fromJson(v1, "old.json")).hasMessageContaining("old.json is a version 1 key file; this build reads 2");
  }

  @Test
  void aSealedChunk_isAbout0_4PercentLonger_andOpensOnlyWithItsId() throws Exception {
    ChunkCrypto gcm = key.crypto(Encryption.AES_GCM);
    byte[] big = new byte[1 << 20];
    new java.util.Random(3).nextBytes(big);
    ChunkId id = gcm.id(big, 0, big.length);
    byte[] sealed = gcm.seal(id, big, 0, big.length);
    assertThat(sealed.length).isBetween(big.length + 1, big.length + big.length / 200);
    assertThat(gcm.open(id, sealed)).isEqualTo(big);
    assertThatThrownBy(() -> gcm.open(ChunkId.of(big), sealed)).isInstanceOf(CorruptDataException.class);
    sealed[sealed.length / 2] ^= 1;
    assertThatThrownBy(() -> gcm.open(id, sealed)).isInstanceOf(CorruptDataException.class);
  }

  @Test
  void plain_usesSha256_andCannotOpen() {
    ChunkCrypto p = key.crypto(Encryption.NONE);
    assertThat(p).isSameAs(ChunkCrypto.PLAIN);
    assertThat(p.id(chunk, 0, chunk.length)).isEqualTo(ChunkId.of(chunk));
    assertThatThrownBy(() -> p.open(ChunkId.of(chunk), chunk)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("needs the app's key");
  }

  @Test
  void encryption_parsesItsSpecs() {
    assertThat(Encryption.parse("aes-gcm")).isEqualTo(Encryption.AES_GCM);
    assertThat(Encryption.parse("aes-siv")).isEqualTo(Encryption.AES_SIV);
    assertThat(Encryption.parse("none")).isEqualTo(Encryption.NONE);
    assertThat(Encryption.parse(null)).isEqualTo(Encryption.NONE);
    assertThatThrownBy(() -> Encryption.parse("rot13")).hasMessageContaining("aes-gcm, aes-siv or none");
  }
}
