package org.cairn.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.cairn.core.bench.MemoryImages;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

/** Chunks coded against a base (the previous checkpoint's chunk at the same address): when, and how they decode. */
class DeltaChunksTest {
  private static final AppKey KEY = AppKey.generate("heat", Instant.parse("2026-01-01T00:00:00Z"));
  private final byte[] base = MemoryImages.image(5, 256 * 1024);
  /** The base with a few objects rewritten: what a heap looks like one checkpoint later. */
  private final byte[] next = MemoryImages.successor(base, 0.02, 6);

  private static ChunkCodec codec(String compression, ChunkCrypto crypto) {
    return new ChunkCodec(Compressor.parse(compression), Redundancy.parse("code:4+2"), crypto);
  }

  private static int encoded(Fragment[] f) {
    return f[0].encodedLength();
  }

  @Test
  void aSimilarChunk_isCodedAgainstItsBase_farSmaller_andDecodesOnlyWithIt() throws IOException {
    assertThat(next).isNotEqualTo(base);
    ChunkCodec c = codec("auto", ChunkCrypto.PLAIN);
    ChunkId baseId = c.id(base, base.length);
    ChunkId id = c.id(next, next.length);
    Fragment[] plain = c.encode(id, next, next.length);
    Fragment[] delta = c.encode(id, next, next.length, new ChunkCodec.Base(baseId, base));
    assertThat(delta[0].compression()).isEqualTo(CompressionType.DELTA);
    assertThat(plain[0].compression()).isNotEqualTo(CompressionType.DELTA);
    assertThat(encoded(delta)).as("a delta against the previous chunk").isLessThan(encoded(plain) / 4);

    Map<ChunkId, byte[]> bases = Map.of(baseId, base);
    assertThat(ChunkCodec.decode(id, delta, ChunkCrypto.PLAIN, bases::get)).isEqualTo(next);
    Fragment[] lastFour = Arrays.copyOfRange(delta, 2, 6); // any m pieces, parity included
    assertThat(ChunkCodec.decode(id, new Fragment[] {null, null, lastFour[0], lastFour[1], lastFour[2], lastFour[3]},
        ChunkCrypto.PLAIN, bases::get)).isEqualTo(next);
    assertThatThrownBy(() -> ChunkCodec.decode(id, delta)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining(baseId.shortHex());
  }

  @Test
  void aWrongBase_isNeverDecodedIntoWrongBytes() {
    ChunkCodec c = codec("auto", ChunkCrypto.PLAIN);
    ChunkId baseId = c.id(base, base.length);
    ChunkId id = c.id(next, next.length);
    Fragment[] delta = c.encode(id, next, next.length, new ChunkCodec.Base(baseId, base));
    byte[] otherBase = base.clone();
    otherBase[1000] ^= 1;
    assertThatThrownBy(() -> ChunkCodec.decode(id, delta, ChunkCrypto.PLAIN, x -> otherBase)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("decoded to bytes with id");
    byte[] shorter = Arrays.copyOf(base, base.length - 1);
    assertThatThrownBy(() -> ChunkCodec.decode(id, delta, ChunkCrypto.PLAIN, x -> shorter)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("expects a base of");
  }

  @Test
  void anUnrelatedBase_aDictionaryLookalike_orNoCompression_leaveTheChunkCodedPlainly() {
    byte[] unrelated = new byte[base.length];
    new Random(9).nextBytes(unrelated);
    ChunkCodec c = codec("auto", ChunkCrypto.PLAIN);
    ChunkId id = c.id(next, next.length);
    assertThat(c.encode(id, next, next.length, new ChunkCodec.Base(ChunkId.of(unrelated), unrelated))[0].compression())
        .isNotEqualTo(CompressionType.DELTA);
    byte[] magic = base.clone();
    magic[0] = 0x37;
    magic[1] = (byte) 0xA4;
    magic[2] = 0x30;
    magic[3] = (byte) 0xEC; // zstd's dictionary magic: it would not be read as raw content
    assertThat(c.encode(id, next, next.length, new ChunkCodec.Base(ChunkId.of(magic), magic))[0].compression())
        .isNotEqualTo(CompressionType.DELTA);
    ChunkCodec none = codec("none", ChunkCrypto.PLAIN);
    assertThat(none.encode(id, next, next.length, new ChunkCodec.Base(ChunkId.of(base), base))[0].compression())
        .isEqualTo(CompressionType.NONE);
  }

  @Test
  void repair_rebuildsADeltaChunksPieces_withoutItsBase() throws CorruptDataException {
    ChunkCodec c = codec("auto", ChunkCrypto.PLAIN);
    ChunkId baseId = c.id(base, base.length);
    ChunkId id = c.id(next, next.length);
    Fragment[] delta = c.encode(id, next, next.length, new ChunkCodec.Base(baseId, base));
    Fragment[] rebuilt = ChunkCodec.rebuild(id, new Fragment[] {null, delta[1], delta[2], delta[3], delta[4], null}, new int[] {0, 5});
    assertThat(rebuilt[0].tag()).isEqualTo(delta[0].tag());
    assertThat(rebuilt[1].tag()).isEqualTo(delta[5].tag());
    Fragment[] tampered = delta.clone();
    byte[] payload = delta[2].payload().clone();
    payload[7] ^= 1;
    tampered[2] = Fragment.create(id, delta[2].codec(), delta[2].compression(), delta[2].index(), 4, 2, delta[2].chunkLength(),
        delta[2].encodedLength(), payload);
    assertThatThrownBy(() -> ChunkCodec.rebuild(id, tampered, new int[] {5})).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("disagrees");
  }

  @Test
  void sealedChunks_codeAgainstASealedBase_andTheBaseIdStaysInsideTheSeal() throws IOException {
    ChunkCrypto crypto = KEY.crypto(Encryption.AES_GCM);
    ChunkCodec c = codec("auto", crypto);
    ChunkId baseId = c.id(base, base.length);
    ChunkId id = c.id(next, next.length);
    Fragment[] delta = c.encode(id, next, next.length, new ChunkCodec.Base(baseId, base));
    assertThat(delta[0].compression()).isEqualTo(CompressionType.DELTA);
    assertThat(delta[0].encryption()).isEqualTo(Encryption.AES_GCM);
    byte[] all = new byte[0];
    for (Fragment f : delta) {
      all = concat(all, f.payload());
    }
    assertThat(EncryptedChunkCodecTest.indexOf(all, baseId.toBytes())).as("the base's id is sealed with the chunk").isNegative();
    assertThat(ChunkCodec.decode(id, delta, crypto, Map.of(baseId, base)::get)).isEqualTo(next);
  }

  @Test
  void decodeBase_givesTheBytesDecodeGives_andAPlaintextBaseIsStillCheckedAgainstItsId() throws IOException {
    ChunkCrypto crypto = KEY.crypto(Encryption.AES_GCM);
    ChunkCodec sealed = codec("auto", crypto);
    ChunkId id = sealed.id(base, base.length);
    Fragment[] f = sealed.encode(id, base, base.length);
    assertThat(ChunkCodec.decodeBase(id, f, crypto)).isEqualTo(ChunkCodec.decode(id, f, crypto)).isEqualTo(base);
    ChunkId other = sealed.id(next, next.length);
    assertThatThrownBy(() -> ChunkCodec.decodeBase(other, f, crypto)).isInstanceOf(CorruptDataException.class); // the tag binds the id

    ChunkCodec plain = codec("auto", ChunkCrypto.PLAIN);
    Fragment[] p = plain.encode(ChunkId.of(base), base, base.length);
    Fragment[] relabelled = new Fragment[p.length];
    for (int i = 0; i < p.length; i++) {
      relabelled[i] = Fragment.create(ChunkId.of(next), p[i].codec(), p[i].compression(), p[i].index(), 4, 2, p[i].chunkLength(),
          p[i].encodedLength(), p[i].payload());
    }
    assertThatThrownBy(() -> ChunkCodec.decodeBase(ChunkId.of(next), relabelled, ChunkCrypto.PLAIN))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("decoded to bytes with id");
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
