package org.cairn.core.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.cairn.core.CorruptDataException;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

class ManifestTest {
  private final Manifest manifest = Manifest.of("heat", "n17", 3, 65536, "code:4+2", "auto:1:3%", "file",
      1_764_000_000_000L, "host-a", List.of(
          new ChunkRef(ChunkId.of(new byte[] {1}), 65536),
          new ChunkRef(ChunkId.of(new byte[] {2}), 65536),
          new ChunkRef(ChunkId.of(new byte[] {3}), 100)));

  @Test
  void json_roundTrips() throws CorruptDataException {
    String json = manifest.toJson();
    assertThat(json).contains("\"schemaVersion\":1").contains("\"app\":\"heat\"").contains(ChunkId.of(new byte[] {1}).hex());
    Manifest back = Manifest.fromJson(json);
    assertThat(back).isEqualTo(manifest);
    assertThat(back.size()).isEqualTo(2 * 65536 + 100);
    assertThat(back.chunks()).hasSize(3);
  }

  @Test
  void variableChunks_areSchemaThree_andOnlyThereMayAMiddleChunkBeShort() throws CorruptDataException {
    List<ChunkRef> chunks = List.of(new ChunkRef(ChunkId.of(new byte[] {1}), 40_000), new ChunkRef(ChunkId.of(new byte[] {2}), 65536),
        new ChunkRef(ChunkId.of(new byte[] {3}), 7));
    Manifest cdc = Manifest.of("heat", "n17", 3, 65536, "code:4+2", "auto:1:3%", "file", 1_700_000_000_000L, "host", chunks)
        .withChunking("cdc");
    assertThat(cdc.schemaVersion()).isEqualTo(3);
    Manifest back = Manifest.fromJson(cdc.toJson());
    assertThat(back).isEqualTo(cdc);
    assertThat(back.chunking()).isEqualTo("cdc");
    assertThat(Manifest.of("heat", "n17", 3, 65536, "code:4+2", "auto:1:3%", "file", 1L, "host", chunks).withChunking("fixed")
        .schemaVersion()).isEqualTo(1);
    String fixed = cdc.toJson().replace(",\"chunking\":\"cdc\"", "").replace("\"schemaVersion\":3", "\"schemaVersion\":1");
    assertThat(fixed).doesNotContain("chunking");
    assertThatThrownBy(() -> Manifest.fromJson(fixed)).isInstanceOf(CorruptDataException.class).hasMessageContaining("chunk 0 has length 40000");
    String tooBig = cdc.toJson().replace("\"length\":65536", "\"length\":65537").replace("\"size\":105543", "\"size\":105544");
    assertThatThrownBy(() -> Manifest.fromJson(tooBig)).isInstanceOf(CorruptDataException.class).hasMessageContaining("65537");
  }

  @Test
  void fromJson_toleratesUnknownFutureFields() throws CorruptDataException {
    String json = manifest.toJson()
        .replace("\"app\":", "\"padding\":{\"scheme\":\"none\"},\"app\":")
        .replace("\"length\":100", "\"length\":100,\"storedLength\":80");
    assertThat(Manifest.fromJson(json)).isEqualTo(manifest);
  }

  @Test
  void fromJson_refusesNewerSchemaAndInconsistentSizes() {
    assertThatThrownBy(() -> Manifest.fromJson(manifest.toJson().replace("\"schemaVersion\":1", "\"schemaVersion\":4")))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("schema version 4 is not supported");
    assertThatThrownBy(() -> Manifest.fromJson(manifest.toJson().replace("\"size\":131172", "\"size\":5")))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("does not match");
    assertThatThrownBy(() -> Manifest.fromJson(manifest.toJson().replaceFirst("\"length\":65536", "\"length\":65000")))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("chunk 0 has length 65000");
    assertThatThrownBy(() -> Manifest.fromJson("{\"schemaVersion\":1,\"chunks\":[{\"id\":\"xyz\",\"length\":1}]}"))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("64 hex digits");
    assertThatThrownBy(() -> Manifest.fromJson("not json")).isInstanceOf(CorruptDataException.class);
  }

  @Test
  void plaintextManifests_stayAtSchemaOne_withNoEncryptionFields() {
    assertThat(manifest.schemaVersion()).isEqualTo(1);
    assertThat(manifest.encrypted()).isFalse();
    assertThat(manifest.toJson()).doesNotContain("encryption").doesNotContain("keyId");
  }

  @Test
  void encryptedManifests_areSchemaTwo_andRoundTripTheirEncryptionAndKeyId() throws Exception {
    Manifest sealed = Manifest.of("heat", "n17", 3, 65536, "code:4+2", "auto:1:3%", "file", 1_700_000_000_000L, "host",
        manifest.chunks(), "aes-gcm", "3f2a9c01deadbeef");
    Manifest back = Manifest.fromJson(sealed.toJson());
    assertThat(back).isEqualTo(sealed);
    assertThat(back.schemaVersion()).isEqualTo(2);
    assertThat(back.encrypted()).isTrue();
    assertThat(back.encryption()).isEqualTo("aes-gcm");
    assertThat(back.keyId()).isEqualTo("3f2a9c01deadbeef");
    assertThat(back.withStep(9).keyId()).isEqualTo("3f2a9c01deadbeef");
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(sealed.toJson());
    tree.remove("keyId");
    assertThatThrownBy(() -> Manifest.fromJson(tree.toString()))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("an encryption but no key");
  }
}
