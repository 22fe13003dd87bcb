package org.cairn.client.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.manifest.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppKeysTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir
  Path tmp;

  private static Manifest manifest(String app, String encryption, String keyId) {
    return Manifest.of(app, "n1", 1, 65536, "code:3+2", "zstd", "file", 0L, "host", List.of(), encryption, keyId);
  }

  @Test
  void aManifestWithoutEncryptionForAnAppWhoseKeyIsHereIsRefusedAsADowngrade() throws IOException {
    AppKeys keys = new AppKeys(tmp.resolve("keys"));
    AppKey key = keys.create("heat", NOW);
    assertThat(keys.forVersion(manifest("heat", "aes-gcm", key.fingerprint())).fingerprint()).isEqualTo(key.fingerprint());
    assertThatThrownBy(() -> keys.forVersion(manifest("heat", null, null)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("claims to be unencrypted")
        .hasMessageContaining("downgrade");
  }

  @Test
  void aManifestWithoutEncryptionOfAnAppWithNoKeyHereReadsAsPlaintext() throws IOException {
    AppKeys keys = new AppKeys(tmp.resolve("keys"));
    keys.create("heat", NOW);
    assertThat(keys.forVersion(manifest("open", null, null))).isSameAs(ChunkCrypto.PLAIN);
  }

  @Test
  void aKeyIsWritten0600InA0700DirectoryAndALooserDirectoryIsTightened() throws IOException {
    Path dir = java.nio.file.Files.createDirectories(tmp.resolve("keys"));
    java.nio.file.Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    AppKeys keys = new AppKeys(dir);
    keys.create("heat", NOW);
    assertThat(mode(dir)).isEqualTo("rwx------");
    assertThat(mode(keys.path("heat"))).isEqualTo("rw-------");
    keys.importKey("heat", AppKey.generate("heat", NOW), true);
    assertThat(mode(keys.path("heat"))).isEqualTo("rw-------");
    AppKeys fresh = new AppKeys(tmp.resolve("new/keys"));
    fresh.create("heat", NOW);
    assertThat(mode(fresh.dir())).isEqualTo("rwx------");
  }

  private static String mode(Path p) throws IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(p));
  }
}
