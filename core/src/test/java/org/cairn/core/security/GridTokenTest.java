package org.cairn.core.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridTokenTest {
  private static final String PIN = "ab".repeat(32);

  @Test
  void aTokenWithoutPin_isItsWholeText() {
    GridToken t = GridToken.of("0123456789abcdef0123");
    assertThat(t.caPin()).isEmpty();
    assertThat(t.bearerValue()).isEqualTo("0123456789abcdef0123");
    assertThat(t.text()).isEqualTo("0123456789abcdef0123");
  }

  @Test
  void theCaPin_isNotPartOfTheSecret(@TempDir Path dir) throws IOException {
    Path f = Files.writeString(dir.resolve("t"), "0123456789abcdef0123#sha256:" + PIN.toUpperCase() + "\n");
    GridToken t = GridToken.readFile(f);
    assertThat(t.caPin()).contains(PIN);
    assertThat(t.bearerValue()).isEqualTo("0123456789abcdef0123");
    assertThat(t.matchesAuthorization("Bearer 0123456789abcdef0123")).isTrue();
    assertThat(t.matchesAuthorization("Bearer 0123456789abcdef0123#sha256:" + PIN)).isFalse();
    assertThat(GridToken.of("0123456789abcdef0123").withCaPin(PIN)).isEqualTo("0123456789abcdef0123#sha256:" + PIN);
  }

  @Test
  void aMalformedPinOrShortSecret_isAClearError(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> GridToken.of("0123456789abcdef0123#sha256:abc")).hasMessageContaining("64 hex");
    assertThatThrownBy(() -> GridToken.of("short#sha256:" + PIN)).hasMessageContaining("at least 16");
    Path f = Files.writeString(dir.resolve("t"), "tiny\n");
    assertThatThrownBy(() -> GridToken.readFile(f)).isInstanceOf(IOException.class).hasMessageContaining(f.toString())
        .hasMessageNotContaining("tiny");
  }

  @Test
  void toString_neverShowsTheSecret() {
    assertThat(GridToken.of("0123456789abcdef0123").toString()).doesNotContain("0123456789");
  }
}
