package org.cairn.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.cairn.core.crypto.CatalogKey;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.ChunkDecoder;
import org.junit.jupiter.api.Test;

class CatalogRecordTest {
  private static final String KEY = CatalogKey.generatePrivate();

  private static byte[] plaintext(int n) {
    byte[] b = new byte[n];
    new Random(7).nextBytes(b);
    for (int i = 0; i < n; i += 3) {
      b[i] = 'a'; // compressible, as JSON is
    }
    return b;
  }

  @Test
  void sealedCodedAndDecodedFromAnyMPieces_opensToThePlaintext() throws Exception {
    byte[] plain = plaintext(300_000);
    byte[] sealed = CatalogKey.seal(CatalogKey.publicOf(KEY), CatalogRecord.pack(plain));
    Fragment[] pieces = CatalogRecord.code(sealed, Redundancy.parse("code:3+2"));
    ChunkId id = pieces[0].chunkId();
    assertThat(CatalogRecord.isRecord(id)).isTrue();
    assertThat(id).isEqualTo(CatalogRecord.idOf(sealed));
    assertThat(CatalogRecord.isRecord(ChunkId.of(plain))).as("a data chunk's id").isFalse();
    Fragment[] some = {null, pieces[1], null, pieces[3], pieces[4]};
    byte[] back = CatalogRecord.decode(id, some);
    assertThat(CatalogRecord.unpack(CatalogKey.open(KEY, back))).isEqualTo(plain);
    // repair re-codes a record without opening it: the rebuilt pieces are the lost ones, bit for bit
    Fragment[] rebuilt = ChunkDecoder.rebuild(id, some, new int[] {0, 2});
    assertThat(rebuilt[0].toBytes()).isEqualTo(pieces[0].toBytes());
    assertThat(rebuilt[1].toBytes()).isEqualTo(pieces[2].toBytes());
  }

  @Test
  void anotherKeyAlteredBytesOrADataChunk_areRefused() {
    byte[] sealed = CatalogKey.seal(CatalogKey.publicOf(KEY), CatalogRecord.pack("{}".getBytes(StandardCharsets.UTF_8)));
    assertThatThrownBy(() -> CatalogKey.open(CatalogKey.generatePrivate(), sealed)).isInstanceOf(GeneralSecurityException.class);
    byte[] altered = sealed.clone();
    altered[altered.length / 2] ^= 1;
    assertThatThrownBy(() -> CatalogKey.open(KEY, altered)).isInstanceOf(GeneralSecurityException.class);
    // pieces of other bytes under a record's id do not decode as that record
    Fragment[] other = CatalogRecord.code(altered, Redundancy.parse("replicate:2"));
    assertThatThrownBy(() -> CatalogRecord.decode(CatalogRecord.idOf(sealed), other)).isInstanceOf(CorruptDataException.class);
    assertThatThrownBy(() -> CatalogRecord.decode(ChunkId.of(sealed), other)).isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("not a catalog record");
    assertThatThrownBy(() -> CatalogRecord.unpack(new byte[] {0x7f, 0, 0, 0, 1})).isInstanceOf(CorruptDataException.class);
  }

  @Test
  void theSealIsRandomized_butThePublicKeyCarriesNoSecret() {
    String pub = CatalogKey.publicOf(KEY);
    assertThat(CatalogKey.seal(pub, new byte[] {1})).isNotEqualTo(CatalogKey.seal(pub, new byte[] {1}));
    assertThatThrownBy(() -> CatalogKey.publicOf(pub)).isInstanceOf(IllegalArgumentException.class);
  }
}
