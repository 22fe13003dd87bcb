package org.cairn.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.Compressor;
import org.cairn.core.crypto.AppKey;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.image.MemoryImages;
import org.junit.jupiter.api.Test;

/** Chunks sealed with an app key: round trips, key-less repair, wrong keys and tampering. */
class EncryptedChunkCodecTest {
  private static final AppKey KEY = AppKey.generate("heat", Instant.parse("2026-01-01T00:00:00Z"));
  private final byte[] chunk = MemoryImages.image(3, 256 * 1024);

  private static ChunkCodec codec(String redundancy, Encryption e) {
    return new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse(redundancy), KEY.crypto(e));
  }

  @Test
  void encode_sealsEveryPiece_andDecodeWithTheKeyRoundTrips() throws CorruptDataException {
    for (Encryption e : new Encryption[] {Encryption.AES_GCM, Encryption.AES_SIV}) {
      ChunkCodec c = codec("code:3+2", e);
      ChunkId id = c.id(chunk, chunk.length);
      assertThat(id).isNotEqualTo(ChunkId.of(chunk));
      Fragment[] pieces = c.encode(id, chunk, chunk.length);
      for (Fragment f : pieces) {
        assertThat(f.encryption()).isEqualTo(e);
        assertThat(f.chunkLength()).isEqualTo(chunk.length);
      }
      assertThat(ChunkDecoder.decode(id, new Fragment[] {null, pieces[1], pieces[2], null, pieces[4]}, KEY.crypto(e))).isEqualTo(chunk);
    }
  }

  @Test
  void noPiece_containsAPlaintextMarker() {
    byte[] marker = "CAIRN-SECRET-MARKER-0123456789".getBytes(StandardCharsets.US_ASCII);
    byte[] data = new byte[200_000];
    for (int i = 0; i + marker.length <= data.length; i += marker.length) {
      System.arraycopy(marker, 0, data, i, marker.length);
    }
    for (String compression : new String[] {"none", "zstd"}) {
      ChunkCodec c = new ChunkCodec(Compressor.parse(compression), Redundancy.parse("replicate:2"), KEY.crypto(Encryption.AES_GCM));
      for (Fragment f : c.encode(c.id(data, data.length), data, data.length)) {
        assertThat(indexOf(f.toBytes(), marker)).as(compression).isEqualTo(-1);
      }
    }
  }

  @Test
  void decode_withoutTheKey_saysItNeedsTheKey() {
    ChunkCodec c = codec("code:3+2", Encryption.AES_GCM);
    ChunkId id = c.id(chunk, chunk.length);
    Fragment[] pieces = c.encode(id, chunk, chunk.length);
    assertThatThrownBy(() -> ChunkDecoder.decode(id, pieces)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("needs the app's key");
  }

  @Test
  void decode_withAnotherKey_isCorruptData() {
    ChunkCodec c = codec("code:3+2", Encryption.AES_GCM);
    ChunkId id = c.id(chunk, chunk.length);
    Fragment[] pieces = c.encode(id, chunk, chunk.length);
    ChunkCrypto other = AppKey.generate("heat", Instant.EPOCH).crypto(Encryption.AES_GCM);
    assertThatThrownBy(() -> ChunkDecoder.decode(id, pieces, other)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("does not decrypt with key " + other.fingerprint());
  }

  @Test
  void aTamperedPayload_withItsCrcsFixed_isCorruptData() {
    ChunkCodec c = codec("replicate:2", Encryption.AES_GCM);
    ChunkId id = c.id(chunk, chunk.length);
    Fragment good = c.encode(id, chunk, chunk.length)[0];
    byte[] payload = good.payload().clone();
    payload[payload.length / 2] ^= 1;
    // a forger who rewrites the piece and its CRCs still cannot pass the AEAD
    Fragment forged = Fragment.create(id, good.codec(), good.compression(), good.encryption(), 0, 1, 1, good.chunkLength(),
        good.encodedLength(), payload);
    assertThatThrownBy(() -> ChunkDecoder.decode(id, new Fragment[] {forged, null}, KEY.crypto(Encryption.AES_GCM)))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("does not decrypt");
  }

  @Test
  void theFetchsDecode_refusesAForgedPieceOrOneSealedForAnotherId() throws Exception {
    ChunkCodec c = codec("replicate:2", Encryption.AES_GCM);
    ChunkCrypto key = KEY.crypto(Encryption.AES_GCM);
    ChunkId id = c.id(chunk, chunk.length);
    Fragment good = c.encode(id, chunk, chunk.length)[0];
    byte[] out = new byte[chunk.length];
    assertThat(ChunkDecoder.decode(id, new Fragment[] {good, null}, out, key, ChunkCodec.Bases.NONE)).isEqualTo(chunk.length);
    assertThat(out).isEqualTo(chunk);

    byte[] payload = good.payload().clone();
    payload[payload.length / 3] ^= 1;
    Fragment forged = Fragment.create(id, good.codec(), good.compression(), good.encryption(), 0, 1, 1, good.chunkLength(),
        good.encodedLength(), payload);
    assertThatThrownBy(() -> ChunkDecoder.decode(id, new Fragment[] {forged, null}, out, key, ChunkCodec.Bases.NONE))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("does not decrypt");

    // another chunk's sealed payload presented under this id: the tag is over the id it was sealed for
    byte[] other = chunk.clone();
    other[0] ^= 1;
    ChunkId otherId = c.id(other, other.length);
    Fragment theirs = c.encode(otherId, other, other.length)[0];
    Fragment relabelled = Fragment.create(id, theirs.codec(), theirs.compression(), theirs.encryption(), 0, 1, 1,
        theirs.chunkLength(), theirs.encodedLength(), theirs.payload());
    assertThatThrownBy(() -> ChunkDecoder.decode(id, new Fragment[] {relabelled, null}, out, key, ChunkCodec.Bases.NONE))
        .isInstanceOf(CorruptDataException.class);
  }

  @Test
  void theFetchsDecode_checksASealedChunkAgainstItsKeyedId_soBytesSealedUnderAnotherChunksIdFail() {
    // a holder of the app's key (another client of the app) seals these bytes under the id of other
    // bytes, e.g. to poison what later stores of those bytes dedup against: the seal opens, the id does not match
    ChunkCodec c = codec("replicate:2", Encryption.AES_GCM);
    byte[] other = chunk.clone();
    other[7] ^= 1;
    ChunkId otherId = c.id(other, other.length);
    Fragment[] poisoned = c.encode(otherId, chunk, chunk.length);
    byte[] out = new byte[chunk.length];
    assertThatThrownBy(() -> ChunkDecoder.decode(otherId, poisoned, out, KEY.crypto(Encryption.AES_GCM), ChunkCodec.Bases.NONE))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("decoded to bytes with id");
  }

  @Test
  void anUnsealedPieceSetForAnEncryptedApp_isRefusedThoughItsPlainIdMatches() {
    // a forger without the key codes their own bytes in plaintext and names them by their SHA-256
    byte[] forgedBytes = "not what the app stored".getBytes(StandardCharsets.US_ASCII);
    ChunkCodec plain = new ChunkCodec(Compressor.parse("zstd"), Redundancy.parse("replicate:2"));
    ChunkId forgedId = plain.id(forgedBytes, forgedBytes.length);
    Fragment[] forged = plain.encode(forgedId, forgedBytes, forgedBytes.length);
    ChunkCrypto key = KEY.crypto(Encryption.AES_GCM);
    byte[] out = new byte[forgedBytes.length];
    assertThatThrownBy(() -> ChunkDecoder.decode(forgedId, forged, out, key, ChunkCodec.Bases.NONE))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("stored unsealed");
    assertThatThrownBy(() -> ChunkDecoder.decode(forgedId, forged, key)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("stored unsealed");
    assertThatThrownBy(() -> ChunkDecoder.decodeBase(forgedId, forged, key)).isInstanceOf(CorruptDataException.class);
    assertThat(out).containsOnly(0);
  }

  @Test
  void rebuild_withoutTheKey_reproducesTheLostPiecesBitForBit() throws CorruptDataException {
    for (String spec : new String[] {"code:3+2", "cauchy:4+2", "replicate:3"}) {
      ChunkCodec c = codec(spec, Encryption.AES_GCM);
      ChunkId id = c.id(chunk, chunk.length);
      Fragment[] all = c.encode(id, chunk, chunk.length);
      int n = all.length;
      int m = all[0].dataFragments();
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
        assertThat(rebuilt[j].toBytes()).as(spec + " piece " + lost[j]).isEqualTo(all[lost[j]].toBytes());
        assertThat(rebuilt[j].tag()).isEqualTo(all[lost[j]].tag());
      }
    }
  }

  @Test
  void rebuild_withoutTheKey_refusesPiecesThatDisagree() {
    ChunkCodec c = codec("code:3+2", Encryption.AES_GCM);
    ChunkId id = c.id(chunk, chunk.length);
    Fragment[] all = c.encode(id, chunk, chunk.length);
    byte[] payload = all[4].payload().clone();
    payload[0] ^= 1;
    Fragment odd = Fragment.create(id, all[4].codec(), all[4].compression(), all[4].encryption(), 4, 3, 2, all[4].chunkLength(),
        all[4].encodedLength(), payload);
    assertThatThrownBy(() -> ChunkDecoder.rebuild(id, new Fragment[] {null, all[1], all[2], all[3], odd}, new int[] {0}))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("disagrees");
  }

  @Test
  void pipelines_storeAndFetchAnEncryptedImage_andDedupWithinTheKey() throws IOException {
    byte[] image = new byte[3 * 65536 + 100];
    new java.util.Random(11).nextBytes(image);
    System.arraycopy(image, 0, image, 65536, 65536); // chunk 1 repeats chunk 0
    ChunkCrypto crypto = KEY.crypto(Encryption.AES_GCM);
    Map<ChunkId, Fragment[]> stored = new ConcurrentHashMap<>();
    StoreResult r = new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:3+2"), crypto), 65536, 2)
        .store(new ByteArrayInputStream(image), StorePipeline.DedupIndex.NONE, (i, f) -> stored.put(f[0].chunkId(), f));
    assertThat(r.chunks()).hasSize(4);
    assertThat(r.newChunks()).isEqualTo(3);
    assertThat(r.chunks().get(0).id()).isEqualTo(crypto.id(image, 0, 65536));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new FetchPipeline(2, 4, FetchPipeline.REPEAT_CACHE_BYTES, crypto).fetch(r.chunks(), (i, ref) -> stored.get(ref.id()), out);
    assertThat(out.toByteArray()).isEqualTo(image);
    List<ChunkId> again = new ArrayList<>();
    new StorePipeline(new ChunkCodec(Compressor.parse("auto"), Redundancy.parse("code:3+2"), crypto), 65536, 1)
        .store(new ByteArrayInputStream(image), stored::containsKey, (i, f) -> again.add(f[0].chunkId()));
    assertThat(again).as("a second store of the same image under the same key sends nothing").isEmpty();
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    assertThatThrownBy(() -> new FetchPipeline(2).fetch(r.chunks(), (i, ref) -> stored.get(ref.id()), plain))
        .isInstanceOf(CorruptDataException.class).hasMessageContaining("needs the app's key");
  }

  /** Where {@code needle} first occurs in {@code hay}, or -1 (also for DeltaChunksTest). */
  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
