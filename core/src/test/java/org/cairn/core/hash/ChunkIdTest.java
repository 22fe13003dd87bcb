package org.cairn.core.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChunkIdTest {
  @Test
  void of_isSha256OfThePlaintext() {
    // FIPS 180-2 test vector
    ChunkId id = ChunkId.of("abc".getBytes(StandardCharsets.US_ASCII));
    assertThat(id.hex()).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  void leading64_isTheFirstEightBytesBigEndian() {
    ChunkId id = ChunkId.parse("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(id.leading64()).isEqualTo(0xba7816bf8f01cfeaL);
    assertThat(ChunkId.parse("00000000000000ff" + "0".repeat(48)).leading64()).isEqualTo(0xffL);
  }

  @Test
  void of_hashesOnlyTheGivenRange() {
    byte[] buf = "xxabcyy".getBytes(StandardCharsets.US_ASCII);
    assertThat(ChunkId.of(buf, 2, 3)).isEqualTo(ChunkId.of("abc".getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void parse_roundTripsHexAndComparesByValue() {
    ChunkId a = ChunkId.of(new byte[] {1, 2, 3});
    ChunkId b = ChunkId.parse(a.hex());
    assertThat(b).isEqualTo(a).hasSameHashCodeAs(a);
    assertThat(b.compareTo(a)).isZero();
    assertThat(ChunkId.fromBytes(a.toBytes())).isEqualTo(a);
    assertThat(a.shortHex()).hasSize(12);
  }

  @Test
  void parse_rejectsBadHex() {
    assertThatThrownBy(() -> ChunkId.parse("abc")).hasMessageContaining("64 hex digits");
    assertThatThrownBy(() -> ChunkId.parse("zz".repeat(32))).hasMessageContaining("64 hex digits");
    assertThatThrownBy(() -> ChunkId.fromBytes(new byte[5])).hasMessageContaining("32 bytes");
  }
}
