package org.cairn.tracker.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How many peers an enrollment token may register. */
class TokenStoreTest {
  @TempDir
  Path dir;

  private String issue(TokenStore tokens, Role role, Integer uses) throws IOException {
    return tokens.issue(role, null, false, null, uses, null, "test", 1_000L);
  }

  private static String id(String token) {
    return token.substring(TokenStore.PREFIX.length(), TokenStore.PREFIX.length() + 16);
  }

  @Test
  void anEnrollmentTokenRegistersOnePeerByDefault() throws IOException {
    TokenStore tokens = new TokenStore(dir);
    String donor = issue(tokens, Role.DONOR, null);
    assertThat(tokens.load(id(donor)).uses()).isEqualTo(1);
    assertThat(tokens.takeUse(id(donor))).isTrue();
    assertThat(tokens.takeUse(id(donor))).as("a second peer with the same token").isFalse();
  }

  @Test
  void usesWidenIt_andUnlimitedIsAskedForExplicitly() throws IOException {
    TokenStore tokens = new TokenStore(dir);
    String three = issue(tokens, Role.DONOR, 3);
    for (int i = 0; i < 3; i++) {
      assertThat(tokens.takeUse(id(three))).isTrue();
    }
    assertThat(tokens.takeUse(id(three))).isFalse();
    String unlimited = issue(tokens, Role.DONOR, TokenStore.UNLIMITED_USES);
    assertThat(tokens.load(id(unlimited)).uses()).isNull();
    for (int i = 0; i < 10; i++) {
      assertThat(tokens.takeUse(id(unlimited))).isTrue();
    }
  }

  @Test
  void usesApplyOnlyToDonorTokens() {
    assertThat(TokenStore.refusal(Role.DONOR, false, TokenStore.UNLIMITED_USES)).isNull();
    assertThat(TokenStore.refusal(Role.DONOR, false, 0)).contains("--uses");
    assertThat(TokenStore.refusal(Role.DONOR, false, -2)).contains("--uses");
    assertThat(TokenStore.refusal(Role.CLIENT, false, 1)).contains("donor tokens");
    assertThat(TokenStore.refusal(Role.CLIENT, false, null)).isNull();
  }
}
