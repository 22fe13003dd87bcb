package org.cairn.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.Test;

class ChunkCodecTest {
  private final byte[] chunk = MemoryImages.image(3, 256 * 1024);
  private final ChunkId id = ChunkId.of(chunk);
  private final ChunkCodec codec = new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse("code:3+2"));

  @Test
  void anAllZeroChunksId_isTheHashOfItsZeros_andOneByteOffZeroIsHashedAsItIs() throws Exception {
    org.cairn.core.crypto.ChunkCrypto keyed = org.cairn.core.crypto.AppKey.generate("z", java.time.Instant.EPOCH)
        .crypto(org.cairn.core.crypto.Encryption.AES_GCM);
    for (org.cairn.core.crypto.ChunkCrypto crypto : new org.cairn.core.crypto.ChunkCrypto[] {org.cairn.core.crypto.ChunkCrypto.PLAIN, keyed}) {
      ChunkCodec c = new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse("code:3+2"), crypto);
      byte[] pooled = new byte[1 << 20]; // a pooled buffer larger than the chunk
      for (int length : new int[] {1 << 20, 300_001, 4096, 1}) {
        java.util.Arrays.fill(pooled, (byte) 0);
        ChunkId zero = c.id(pooled, length);
        assertThat(zero).as("%d zeros", length).isEqualTo(crypto.id(new byte[length], 0, length));
        assertThat(c.id(pooled, length)).as("again, from the cache").isEqualTo(zero);
        pooled[length - 1] = 7; // past the first 64 KiB block when the chunk is larger
        assertThat(c.id(pooled, length)).as("%d bytes, the last not zero", length)
            .isEqualTo(crypto.id(java.util.Arrays.copyOf(pooled, length), 0, length)).isNotEqualTo(zero);
      }
    }
  }

  @Test
  void fragments_doNotShareTheCompressorsScratch_whenTheThreadEncodesTheNextChunk() throws CorruptDataException {
    // the codec compresses into a per-thread scratch buffer; every spec must leave earlier fragments intact
    for (String compression : new String[] {"zstd", "auto", "none"}) {
      for (String redundancy : new String[] {"code:3+2", "replicate:2"}) {
        ChunkCodec c = new ChunkCodec(Compressor.parse(compression), Redundancy.parse(redundancy));
        byte[] a = MemoryImages.image(5, 300_000);
        byte[] b = MemoryImages.image(6, 300_000);
        Fragment[] fa = c.encode(ChunkId.of(a), a, a.length);
        Fragment[] fb = c.encode(ChunkId.of(b), b, b.length);
        java.util.Arrays.fill(b, (byte) 7); // a caller reusing its chunk buffer
        assertThat(ChunkDecoder.decode(ChunkId.of(a), fa)).as(compression + " " + redundancy).isEqualTo(a);
        assertThat(ChunkDecoder.decode(fb[0].chunkId(), fb)).as(compression + " " + redundancy).isEqualTo(MemoryImages.image(6, 300_000));
      }
    }
  }

  @Test
  void decode_intoABufferReturnsTheLength() throws CorruptDataException {
    Fragment[] fragments = codec.encode(id, chunk, chunk.length);
    byte[] buffer = new byte[chunk.length + 100];
    assertThat(ChunkDecoder.decode(id, fragments, buffer)).isEqualTo(chunk.length);
    assertThat(java.util.Arrays.copyOf(buffer, chunk.length)).isEqualTo(chunk);
  }

  @Test
  void decode_refusesAChunkLargerThanTheBuffer() {
    Fragment[] fragments = codec.encode(id, chunk, chunk.length);
    assertThatThrownBy(() -> ChunkDecoder.decode(id, fragments, new byte[1000]))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("more than the 1000 expected");
  }

  @Test
  void decode_refusesFragmentsThatDisagree() {
    Fragment[] a = codec.encode(id, chunk, chunk.length);
    Fragment[] b = new ChunkCodec(Compressor.parse("none"), Redundancy.parse("code:3+2")).encode(id, chunk, chunk.length);
    Fragment[] mixed = {a[0], b[1], a[2], null, null};
    assertThatThrownBy(() -> ChunkDecoder.decode(id, mixed)).isInstanceOf(CorruptDataException.class).hasMessageContaining("disagree");
    assertThatThrownBy(() -> ChunkDecoder.decode(id, new Fragment[5])).hasMessageContaining("no fragments");
  }

  @Test
  void decode_detectsAContentIdMismatch() {
    ChunkId other = ChunkId.of(new byte[] {1});
    Fragment[] real = codec.encode(id, chunk, chunk.length);
    // fragments whose header names `other` but whose bytes are this chunk's: well-formed, wrong content
    Fragment[] forged = new Fragment[real.length];
    for (int i = 0; i < real.length; i++) {
      Fragment f = real[i];
      forged[i] = Fragment.create(other, f.codec(), f.compression(), f.index(), f.dataFragments(), f.parityFragments(),
          f.chunkLength(), f.encodedLength(), f.payload());
    }
    assertThatThrownBy(() -> ChunkDecoder.decode(other, forged))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("decoded to bytes with id " + id.shortHex());
  }

  @Test
  void rebuild_fromAnyMFragmentsReproducesTheLostOnesBitForBit() throws CorruptDataException {
    for (String spec : new String[] {"code:3+2", "cauchy:4+2", "replicate:3"}) {
      ChunkCodec c = new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse(spec));
      Fragment[] all = c.encode(id, chunk, chunk.length);
      int n = all.length;
      int m = all[0].dataFragments();
      // keep the last m, rebuild the first n - m
      Fragment[] survivors = new Fragment[n];
      int[] lost = new int[n - m];
      for (int i = 0; i < n; i++) {
        if (i >= n - m) {
          survivors[i] = all[i];
        } else {
          lost[i] = i;
        }
      }
      Fragment[] rebuilt = ChunkDecoder.rebuild(id, survivors, lost);
      for (int j = 0; j < lost.length; j++) {
        assertThat(rebuilt[j].toBytes()).as(spec + " fragment " + lost[j]).isEqualTo(all[lost[j]].toBytes());
      }
    }
  }

  @Test
  void rebuild_refusesTooFewFragmentsAndBadIndices() {
    Fragment[] all = codec.encode(id, chunk, chunk.length);
    assertThatThrownBy(() -> ChunkDecoder.rebuild(id, new Fragment[] {all[0], all[1], null, null, null}, new int[] {2}))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("need 3 of 5");
    assertThatThrownBy(() -> ChunkDecoder.rebuild(id, all, new int[] {5})).isInstanceOf(IllegalArgumentException.class);
  }
}
