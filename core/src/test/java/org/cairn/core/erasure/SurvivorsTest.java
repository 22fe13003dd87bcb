package org.cairn.core.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SurvivorsTest {
  private static byte[][] shards(int n) {
    byte[][] s = new byte[n][];
    for (int i = 0; i < n; i++) {
      s[i] = new byte[] {(byte) i};
    }
    return s;
  }

  @Test
  void picksTheFirstDataShardsPresent_inOrder() {
    byte[][] s = shards(6);
    Survivors held = Survivors.pick(s, new boolean[] {false, true, true, false, true, true}, 4);
    assertThat(held.rows()).containsExactly(1, 2, 4, 5);
    assertThat(held.shards()).isEqualTo(new byte[][] {s[1], s[2], s[4], s[5]});
    assertThat(held.shards()[2]).isSameAs(s[4]);
  }

  @Test
  void takesOnlyAsManyAsTheDataShards_whenMoreArePresent() {
    byte[][] s = shards(6);
    Survivors held = Survivors.pick(s, new boolean[] {true, false, true, true, true, true}, 4);
    assertThat(held.rows()).containsExactly(0, 2, 3, 4);
  }

  @Test
  void isNull_whenNothingIsMissing() {
    assertThat(Survivors.pick(shards(3), new boolean[] {true, true, true}, 2)).isNull();
  }

  @Test
  void refusesTooFewShards_andFlagsOfTheWrongLength() {
    assertThatThrownBy(() -> Survivors.pick(shards(6), new boolean[] {true, false, true, false, true, false}, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("need at least 4 of 6 shards to reconstruct, have 3");
    assertThatThrownBy(() -> Survivors.pick(shards(6), new boolean[] {true, true}, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected 6 presence flags, got 2");
  }
}
