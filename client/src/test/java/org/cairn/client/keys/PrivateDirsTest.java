package org.cairn.client.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateDirsTest {
  @TempDir
  Path tmp;

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void aMissingDirectoryIsCreated0700() throws IOException {
    Path d = PrivateDirs.ensure(tmp.resolve("a/b/spool"));
    assertThat(mode(d)).isEqualTo("rwx------");
  }

  @Test
  void anExistingLooserDirectoryIsTightened() throws IOException {
    Path d = Files.createDirectory(tmp.resolve("cache"));
    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
    PrivateDirs.ensure(d);
    assertThat(mode(d)).isEqualTo("rwx------");
  }

  @Test
  void aFileWhereTheDirectoryShouldBeIsAnError() throws IOException {
    Path f = Files.writeString(tmp.resolve("f"), "x");
    assertThatThrownBy(() -> PrivateDirs.ensure(f)).isInstanceOf(IOException.class);
  }

  @Test
  void aSecretFileIs0600AndNoTemporaryIsLeft() throws IOException {
    Path f = tmp.resolve("key.json");
    PrivateDirs.writeSecret(f, "secret".getBytes(StandardCharsets.UTF_8), false);
    assertThat(mode(f)).isEqualTo("rw-------");
    assertThat(f).hasContent("secret");
    assertThatThrownBy(() -> PrivateDirs.writeSecret(f, "other".getBytes(StandardCharsets.UTF_8), false))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(f).hasContent("secret");
    PrivateDirs.writeSecret(f, "other".getBytes(StandardCharsets.UTF_8), true);
    assertThat(f).hasContent("other");
    assertThat(mode(f)).isEqualTo("rw-------");
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("key.json");
    }
  }
}
