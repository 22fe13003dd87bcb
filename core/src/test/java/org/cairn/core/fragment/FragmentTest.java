package org.cairn.core.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Codec;
import org.cairn.core.hash.ChunkId;
import org.junit.jupiter.api.Test;

class FragmentTest {
  private final byte[] payload = new byte[5000];
  private final Fragment fragment;

  FragmentTest() {
    new Random(3).nextBytes(payload);
    fragment = Fragment.create(ChunkId.of(new byte[] {9}), Codec.REED_SOLOMON, CompressionType.ZSTD, 4, 4, 2, 20000, 19000, payload);
  }

  @Test
  void parse_roundTripsEveryField() throws CorruptDataException {
    byte[] bytes = fragment.toBytes();
    assertThat(bytes).hasSize(Fragment.HEADER_SIZE + payload.length);
    Fragment back = Fragment.parse(bytes);
    assertThat(back).isEqualTo(fragment);
    assertThat(back.index()).isEqualTo(4);
    assertThat(back.dataFragments()).isEqualTo(4);
    assertThat(back.parityFragments()).isEqualTo(2);
    assertThat(back.codec()).isEqualTo(Codec.REED_SOLOMON);
    assertThat(back.compression()).isEqualTo(CompressionType.ZSTD);
    assertThat(back.chunkLength()).isEqualTo(20000);
    assertThat(back.encodedLength()).isEqualTo(19000);
    assertThat(back.chunkId()).isEqualTo(fragment.chunkId());
  }

  @Test
  void verifyBuffer_agreesWithVerifyBytes_overAScatteredBuffer_andNamesCorruption() throws CorruptDataException {
    byte[] bytes = fragment.toBytes();
    io.netty.buffer.CompositeByteBuf c = io.netty.buffer.Unpooled.compositeBuffer();
    c.addComponent(true, io.netty.buffer.Unpooled.directBuffer().writeBytes(bytes, 0, 30)); // splits the header
    c.addComponent(true, io.netty.buffer.Unpooled.directBuffer().writeBytes(bytes, 30, bytes.length - 30));
    try {
      Fragment.Header viaBuffer = Fragment.verify(c);
      Fragment.Header viaBytes = Fragment.verify(bytes, 0, bytes.length);
      assertThat(viaBuffer.chunkId).isEqualTo(viaBytes.chunkId);
      assertThat(viaBuffer.payloadCrc).isEqualTo(viaBytes.payloadCrc);
      assertThat(Fragment.tagOf(c)).isEqualTo(Fragment.tagOf(bytes, 0));
      assertThat(c.readerIndex()).as("indices kept").isZero();
      bytes[bytes.length - 1] ^= 1;
      io.netty.buffer.ByteBuf flipped = io.netty.buffer.Unpooled.wrappedBuffer(bytes);
      assertThatThrownBy(() -> Fragment.verify(flipped)).isInstanceOf(CorruptDataException.class).hasMessageContaining("CRC32C");
      io.netty.buffer.ByteBuf cut = c.slice(0, bytes.length - 1);
      assertThatThrownBy(() -> Fragment.verify(cut)).isInstanceOf(CorruptDataException.class).hasMessageContaining("truncated");
    } finally {
      c.release();
    }
  }

  @Test
  void parse_acceptsTheExtremesOfTheCodeSize() throws CorruptDataException {
    Fragment wide = Fragment.create(ChunkId.of(new byte[0]), Codec.REPLICATE, CompressionType.NONE, 255, 1, 255, 0, 0, new byte[0]);
    assertThat(Fragment.parse(wide.toBytes())).isEqualTo(wide);
    Fragment deep = Fragment.create(ChunkId.of(new byte[0]), Codec.CAUCHY, CompressionType.GZIP, 0, 255, 1, 0, 0, new byte[0]);
    assertThat(Fragment.parse(deep.toBytes()).dataFragments()).isEqualTo(255);
  }

  @Test
  void parse_rejectsTruncationAtEveryLength() {
    byte[] bytes = fragment.toBytes();
    for (int len : new int[] {0, 1, 30, 63, 64, 65, bytes.length - 1}) {
      assertThatThrownBy(() -> Fragment.parse(Arrays.copyOf(bytes, len)))
          .as("length %d", len)
          .isInstanceOf(CorruptDataException.class)
          .hasMessageContaining("truncated");
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThatThrownBy(() -> Fragment.parse(longer)).hasMessageContaining("too long");
  }

  @Test
  void parse_rejectsAnySingleFlippedBit() {
    byte[] bytes = fragment.toBytes();
    Random random = new Random(8);
    // every header bit, and a sample of payload bits
    for (int bit = 0; bit < Fragment.HEADER_SIZE * 8 + 2000; bit++) {
      int pos = bit < Fragment.HEADER_SIZE * 8 ? bit : Fragment.HEADER_SIZE * 8 + random.nextInt(payload.length * 8);
      byte[] damaged = bytes.clone();
      damaged[pos / 8] ^= (byte) (1 << (pos % 8));
      assertThatThrownBy(() -> Fragment.parse(damaged)).as("bit %d", pos).isInstanceOf(CorruptDataException.class);
    }
  }

  @Test
  void parse_namesWhatIsWrong() {
    byte[] bytes = fragment.toBytes();
    byte[] noMagic = bytes.clone();
    noMagic[0] = 'X';
    assertThatThrownBy(() -> Fragment.parse(noMagic)).hasMessageContaining("not a Cairn fragment");
    byte[] badPayload = bytes.clone();
    badPayload[100] ^= 1;
    assertThatThrownBy(() -> Fragment.parse(badPayload)).hasMessageContaining("payload CRC32C");
    byte[] badHeader = bytes.clone();
    badHeader[13] ^= 1;
    assertThatThrownBy(() -> Fragment.parse(badHeader)).hasMessageContaining("header is corrupt");
  }

  @Test
  void create_rejectsImpossibleFields() {
    ChunkId id = ChunkId.of(new byte[0]);
    assertThatThrownBy(() -> Fragment.create(id, Codec.REED_SOLOMON, CompressionType.NONE, 6, 4, 2, 0, 0, new byte[0]))
        .hasMessageContaining("index must be in [0, 6), was 6");
    assertThatThrownBy(() -> Fragment.create(id, Codec.REED_SOLOMON, CompressionType.NONE, 0, 250, 10, 0, 0, new byte[0]))
        .hasMessageContaining("m + k <= 256");
  }

  @Test
  void plaintextFragments_keepVersionOneAndAZeroReservedField() throws CorruptDataException {
    byte[] bytes = fragment.toBytes();
    assertThat(bytes[4]).isEqualTo((byte) Fragment.VERSION);
    assertThat(bytes[10]).isZero();
    assertThat(bytes[11]).isZero();
    assertThat(Fragment.parse(bytes).encryption()).isEqualTo(Encryption.NONE);
  }

  @Test
  void aVersionOneHeaderFromBeforeEncryption_stillParses() throws CorruptDataException {
    // bytes as the v1 writer laid them out (reserved 0), with the header CRC computed over them
    byte[] bytes = new byte[Fragment.HEADER_SIZE + 3];
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
    b.putInt(Fragment.MAGIC).put((byte) 1).put((byte) 1).put((byte) 1).put((byte) 2).put((byte) 3).put((byte) 2).putShort((short) 0);
    b.putInt(12).putInt(12).putInt(3).putInt(Fragment.crc(new byte[] {7, 8, 9}, 0, 3));
    ChunkId.of(new byte[] {5}).copyTo(bytes, 28);
    b.position(60);
    b.putInt(Fragment.crc(bytes, 0, 60));
    b.put(new byte[] {7, 8, 9});
    Fragment f = Fragment.parse(bytes);
    assertThat(f.encryption()).isEqualTo(Encryption.NONE);
    assertThat(f.index()).isEqualTo(2);
    assertThat(f.dataFragments()).isEqualTo(4);
    assertThat(f.toBytes()).isEqualTo(bytes);
  }

  @Test
  void encryptedFragments_areVersionTwo_andRoundTripTheirEncryption() throws CorruptDataException {
    for (Encryption e : new Encryption[] {Encryption.AES_GCM, Encryption.AES_SIV}) {
      Fragment sealed = Fragment.create(ChunkId.of(new byte[] {9}), Codec.REED_SOLOMON, CompressionType.ZSTD, e, 4, 4, 2, 20000,
          19000, payload);
      byte[] bytes = sealed.toBytes();
      assertThat(bytes[4]).isEqualTo((byte) Fragment.VERSION_ENCRYPTED);
      assertThat(bytes[10]).isEqualTo((byte) e.id());
      Fragment back = Fragment.parse(bytes);
      assertThat(back).isEqualTo(sealed);
      assertThat(back.encryption()).isEqualTo(e);
      assertThat(Fragment.parseHeader(bytes, 0, bytes.length).encryption).isEqualTo(e);
      assertThat(sealed.tag()).as("another tag than the plaintext piece").isNotEqualTo(fragment.tag());
      assertThat(back.toString()).contains(e.spec());
    }
  }

  @Test
  void aVersionTwoHeader_withAnUnknownOrNoEncryption_isRefused() {
    Fragment sealed = Fragment.create(ChunkId.of(new byte[] {9}), Codec.REED_SOLOMON, CompressionType.ZSTD, Encryption.AES_GCM,
        4, 4, 2, 20000, 19000, payload);
    for (int id : new int[] {0, 9}) {
      byte[] bytes = sealed.toBytes();
      bytes[10] = (byte) id;
      java.nio.ByteBuffer.wrap(bytes, 60, 4).putInt(Fragment.crc(bytes, 0, 60));
      assertThatThrownBy(() -> Fragment.parse(bytes)).as("encryption id %d", id).isInstanceOf(CorruptDataException.class)
          .hasMessageContaining("fragment header");
    }
  }
}
