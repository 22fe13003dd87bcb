package org.cairn.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;
import java.util.Random;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.junit.jupiter.api.Test;

class FragmentKeyTest {
  private static Fragment[] encode(byte[] chunk, String compression, String redundancy) {
    return new ChunkCodec(Compressor.parse(compression), Redundancy.parse(redundancy)).encode(ChunkId.of(chunk), chunk, chunk.length);
  }

  @Test
  void theTag_tellsApartPiecesMadeDifferently_andIsStableForPiecesMadeAlike() throws Exception {
    byte[] chunk = new byte[100_000];
    new Random(3).nextBytes(chunk);
    java.util.Arrays.fill(chunk, 0, 50_000, (byte) 0);
    Fragment[] zstd32 = encode(chunk, "zstd:3", "code:3+2");
    Fragment[] again = encode(chunk, "zstd:3", "code:3+2");
    Fragment[] raw32 = encode(chunk, "none", "code:3+2");
    Fragment[] zstd41 = encode(chunk, "zstd:3", "code:4+1");
    Fragment[] zstd19 = encode(chunk, "zstd:19", "code:3+2");
    for (int i = 0; i < 5; i++) {
      assertThat(FragmentKey.of(again[i])).isEqualTo(FragmentKey.of(zstd32[i]));
      assertThat(FragmentKey.of(raw32[i])).isNotEqualTo(FragmentKey.of(zstd32[i]));
      assertThat(FragmentKey.of(zstd41[i])).isNotEqualTo(FragmentKey.of(zstd32[i]));
      // same codec, compression id, m and k: only the compressed bytes differ
      assertThat(FragmentKey.of(zstd19[i])).isNotEqualTo(FragmentKey.of(zstd32[i]));
      byte[] bytes = zstd32[i].toBytes();
      Fragment.parseHeader(bytes, 0, bytes.length);
      assertThat(Fragment.tagOf(bytes, 0)).isEqualTo(zstd32[i].tag()).isEqualTo(Fragment.parseHeader(bytes, 0, bytes.length).tag);
    }
  }

  @Test
  void wireForm_is37Bytes_andRoundTrips_includingTagsWithTheHighBitSet() {
    ChunkId id = ChunkId.of(new byte[] {1, 2, 3});
    FragmentKey k = new FragmentKey(id, 200, 0xF00DBEEF);
    byte[] b = k.toBytes();
    assertThat(b).hasSize(37);
    assertThat(FragmentKey.fromBytes(b)).isEqualTo(k);
    assertThat(FragmentKey.fromBytes(b).tag()).isEqualTo(0xF00DBEEF);
    assertThat(FragmentKey.tagHex(k.tag())).isEqualTo("f00dbeef");
    assertThat(FragmentKey.tagHex(0x1a)).isEqualTo("0000001a"); // always 8 digits, as parseTag wants
    assertThat(FragmentKey.parseTag(FragmentKey.tagHex(-2))).isEqualTo(-2);
    assertThat(FragmentKey.parseTag("f00dbeef")).isEqualTo(0xF00DBEEF);
    assertThat(k.toString()).endsWith("#200/f00dbeef");
    // keys sort by chunk, index, then tag as unsigned
    assertThat(new FragmentKey(id, 200, 1)).isLessThan(k);
    assertThat(new FragmentKey(id, 199, -1)).isLessThan(k);

    ByteBuf buf = Unpooled.buffer();
    FragmentKey.encodeList(List.of(k, new FragmentKey(id, 0, 7)), buf);
    assertThat(FragmentKey.decodeList(buf)).containsExactly(k, new FragmentKey(id, 0, 7));
    buf.release();
    ByteBuf old = Unpooled.buffer().writeInt(1).writeBytes(new byte[33]); // a 33-byte key of the older format
    assertThatThrownBy(() -> FragmentKey.decodeList(old)).isInstanceOf(CorruptedFrameException.class);
    old.release();
    assertThatThrownBy(() -> FragmentKey.parseTag("123")).hasMessageContaining("8 hex digits");
  }
}
