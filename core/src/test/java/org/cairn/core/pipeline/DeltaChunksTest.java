package org.cairn.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
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
    assertThat(delta[0].compression()).isEqualTo(CompressionType.PAGE_DELTA);
    assertThat(plain[0].compression().delta()).isFalse();
    assertThat(encoded(delta)).as("a delta against the previous chunk").isLessThan(encoded(plain) / 4);

    Map<ChunkId, byte[]> bases = Map.of(baseId, base);
    assertThat(ChunkDecoder.decode(id, delta, ChunkCrypto.PLAIN, bases::get)).isEqualTo(next);
    Fragment[] lastFour = Arrays.copyOfRange(delta, 2, 6); // any m pieces, parity included
    assertThat(ChunkDecoder.decode(id, new Fragment[] {null, null, lastFour[0], lastFour[1], lastFour[2], lastFour[3]},
        ChunkCrypto.PLAIN, bases::get)).isEqualTo(next);
    assertThatThrownBy(() -> ChunkDecoder.decode(id, delta)).isInstanceOf(CorruptDataException.class)
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
    assertThatThrownBy(() -> ChunkDecoder.decode(id, delta, ChunkCrypto.PLAIN, x -> otherBase)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("decoded to bytes with id");
    byte[] shorter = Arrays.copyOf(base, base.length - 1);
    assertThatThrownBy(() -> ChunkDecoder.decode(id, delta, ChunkCrypto.PLAIN, x -> shorter)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("expects a base of");
  }

  @Test
  void anUnrelatedBase_orNoCompression_leaveTheChunkCodedPlainly() {
    byte[] unrelated = new byte[base.length];
    new Random(9).nextBytes(unrelated);
    ChunkCodec c = codec("auto", ChunkCrypto.PLAIN);
    ChunkId id = c.id(next, next.length);
    assertThat(c.encode(id, next, next.length, new ChunkCodec.Base(ChunkId.of(unrelated), unrelated))[0].compression().delta())
        .isFalse();
    ChunkCodec none = codec("none", ChunkCrypto.PLAIN);
    assertThat(none.encode(id, next, next.length, new ChunkCodec.Base(ChunkId.of(base), base))[0].compression())
        .isEqualTo(CompressionType.NONE);
  }

  @Test
  void aBaseShorterOrLongerThanTheChunk_codesTheSharedPages_andAPartialLastPage() throws IOException {
    ChunkCodec c = codec("auto", ChunkCrypto.PLAIN);
    byte[] grown = Arrays.copyOf(next, next.length + 5000); // the area grew: a page and a bit with no base
    new Random(3).nextBytes(grown);
    System.arraycopy(next, 0, grown, 0, next.length);
    byte[] shortBase = Arrays.copyOf(base, base.length - 100); // the last page of the chunk is longer than the base's
    for (byte[][] pair : new byte[][][] {{grown, base}, {next, shortBase}}) {
      byte[] chunk = pair[0];
      byte[] b = pair[1];
      ChunkId baseId = c.id(b, b.length);
      ChunkId id = c.id(chunk, chunk.length);
      Fragment[] delta = c.encode(id, chunk, chunk.length, new ChunkCodec.Base(baseId, b));
      assertThat(delta[0].compression()).isEqualTo(CompressionType.PAGE_DELTA);
      assertThat(ChunkDecoder.decode(id, delta, ChunkCrypto.PLAIN, Map.of(baseId, b)::get)).isEqualTo(chunk);
    }
  }

  @Test
  void chunksCodedByEarlierBuilds_againstTheBaseAsDictionary_stillDecode() throws IOException {
    ChunkId baseId = ChunkId.of(base);
    ChunkId id = ChunkId.of(next);
    org.cairn.core.compress.Compressed old = org.cairn.core.compress.DeltaCodec.encodeTransient(baseId, base, next, 0,
        next.length, 3);
    Redundancy r = Redundancy.parse("code:4+2");
    byte[][] pieces = r.encode(old.data(), 0, old.length());
    Fragment[] f = new Fragment[pieces.length];
    for (int i = 0; i < pieces.length; i++) {
      f[i] = Fragment.create(id, r.codec(), CompressionType.DELTA, i, 4, 2, next.length, old.length(), pieces[i]);
    }
    assertThat(ChunkDecoder.decode(id, f, ChunkCrypto.PLAIN, Map.of(baseId, base)::get)).isEqualTo(next);
    assertThat(ChunkDecoder.rebuild(id, new Fragment[] {null, f[1], f[2], f[3], f[4], null}, new int[] {0})[0].tag())
        .isEqualTo(f[0].tag());
  }

  @Test
  void aPageMapNamingPagesBeyondTheBase_isCorrupt_notDecoded() {
    byte[] chunk = next;
    ChunkId baseId = ChunkId.of(base);
    org.cairn.core.compress.Compressed d = org.cairn.core.compress.DeltaCodec.encodePagesTransient(baseId, base, chunk,
        chunk.length, 1);
    byte[] payload = Arrays.copyOf(d.data(), d.length());
    byte[] shortBase = Arrays.copyOf(base, 4096);
    java.nio.ByteBuffer.wrap(payload, ChunkId.LENGTH, 4).putInt(shortBase.length); // the recorded length agrees with it
    assertThatThrownBy(() -> org.cairn.core.compress.DeltaCodec.decode(CompressionType.PAGE_DELTA, payload, 0, payload.length,
        shortBase, new byte[chunk.length], chunk.length)).isInstanceOf(CorruptDataException.class).hasMessageContaining("beyond its base");
    assertThatThrownBy(() -> org.cairn.core.compress.DeltaCodec.decode(CompressionType.PAGE_DELTA, payload, 0, 40, base,
        new byte[chunk.length], chunk.length)).isInstanceOf(CorruptDataException.class);
  }

  @Test
  void repair_rebuildsADeltaChunksPieces_withoutItsBase() throws CorruptDataException {
    ChunkCodec c = codec("auto", ChunkCrypto.PLAIN);
    ChunkId baseId = c.id(base, base.length);
    ChunkId id = c.id(next, next.length);
    Fragment[] delta = c.encode(id, next, next.length, new ChunkCodec.Base(baseId, base));
    Fragment[] rebuilt = ChunkDecoder.rebuild(id, new Fragment[] {null, delta[1], delta[2], delta[3], delta[4], null}, new int[] {0, 5});
    assertThat(rebuilt[0].tag()).isEqualTo(delta[0].tag());
    assertThat(rebuilt[1].tag()).isEqualTo(delta[5].tag());
    Fragment[] tampered = delta.clone();
    byte[] payload = delta[2].payload().clone();
    payload[7] ^= 1;
    tampered[2] = Fragment.create(id, delta[2].codec(), delta[2].compression(), delta[2].index(), 4, 2, delta[2].chunkLength(),
        delta[2].encodedLength(), payload);
    assertThatThrownBy(() -> ChunkDecoder.rebuild(id, tampered, new int[] {5})).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("disagrees");
  }

  @Test
  void sealedChunks_codeAgainstASealedBase_andTheBaseIdStaysInsideTheSeal() throws IOException {
    ChunkCrypto crypto = KEY.crypto(Encryption.AES_GCM);
    ChunkCodec c = codec("auto", crypto);
    ChunkId baseId = c.id(base, base.length);
    ChunkId id = c.id(next, next.length);
    Fragment[] delta = c.encode(id, next, next.length, new ChunkCodec.Base(baseId, base));
    assertThat(delta[0].compression()).isEqualTo(CompressionType.PAGE_DELTA);
    assertThat(delta[0].encryption()).isEqualTo(Encryption.AES_GCM);
    byte[] all = new byte[0];
    for (Fragment f : delta) {
      all = concat(all, f.payload());
    }
    assertThat(EncryptedChunkCodecTest.indexOf(all, baseId.toBytes())).as("the base's id is sealed with the chunk").isNegative();
    assertThat(ChunkDecoder.decode(id, delta, crypto, Map.of(baseId, base)::get)).isEqualTo(next);
  }

  @Test
  void decodeBase_givesTheBytesDecodeGives_andAPlaintextBaseIsStillCheckedAgainstItsId() throws IOException {
    ChunkCrypto crypto = KEY.crypto(Encryption.AES_GCM);
    ChunkCodec sealed = codec("auto", crypto);
    ChunkId id = sealed.id(base, base.length);
    Fragment[] f = sealed.encode(id, base, base.length);
    assertThat(ChunkDecoder.decodeBase(id, f, crypto)).isEqualTo(ChunkDecoder.decode(id, f, crypto)).isEqualTo(base);
    ChunkId other = sealed.id(next, next.length);
    assertThatThrownBy(() -> ChunkDecoder.decodeBase(other, f, crypto)).isInstanceOf(CorruptDataException.class); // the tag binds the id

    ChunkCodec plain = codec("auto", ChunkCrypto.PLAIN);
    Fragment[] p = plain.encode(ChunkId.of(base), base, base.length);
    Fragment[] relabelled = new Fragment[p.length];
    for (int i = 0; i < p.length; i++) {
      relabelled[i] = Fragment.create(ChunkId.of(next), p[i].codec(), p[i].compression(), p[i].index(), 4, 2, p[i].chunkLength(),
          p[i].encodedLength(), p[i].payload());
    }
    assertThatThrownBy(() -> ChunkDecoder.decodeBase(ChunkId.of(next), relabelled, ChunkCrypto.PLAIN))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("decoded to bytes with id");
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
