package org.cairn.core.fragment;

import static org.cairn.core.fragment.Fragment.HEADER_SIZE;
import static org.cairn.core.fragment.Fragment.MAGIC;
import static org.cairn.core.fragment.Fragment.MAX_CHUNK;
import static org.cairn.core.fragment.Fragment.MAX_ENCODED;
import static org.cairn.core.fragment.Fragment.MAX_PAYLOAD;
import static org.cairn.core.fragment.Fragment.VERSION;
import static org.cairn.core.fragment.Fragment.VERSION_ENCRYPTED;
import static org.cairn.core.fragment.Fragment.crc;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Codec;
import org.cairn.core.hash.ChunkId;

/**
 * Reading and checking a serialised fragment's header ({@link Fragment}'s layout): magic, version,
 * header CRC, field ranges; and a whole fragment's exact length and payload CRC32C, from an array
 * or from a buffer's own memory. Every failure is a {@link CorruptDataException} saying what is wrong.
 */
final class FragmentHeaders {
  private FragmentHeaders() {}

  /** {@link Fragment#verify(byte[], int, int)}. */
  static Fragment.Header verify(byte[] bytes, int offset, int length) throws CorruptDataException {
    Fragment.Header h = parse(bytes, offset, length);
    requireLength(h, length);
    int actualCrc = crc(bytes, offset + HEADER_SIZE, h.payloadLength);
    requirePayloadCrc(h, actualCrc);
    return h;
  }

  /** {@link Fragment#verify(io.netty.buffer.ByteBuf)}. */
  static Fragment.Header verify(io.netty.buffer.ByteBuf fragment) throws CorruptDataException {
    int length = fragment.readableBytes();
    if (length < HEADER_SIZE) {
      throw new CorruptDataException("fragment truncated: " + length + " bytes, a header alone is " + HEADER_SIZE);
    }
    byte[] header = new byte[HEADER_SIZE];
    fragment.getBytes(fragment.readerIndex(), header);
    Fragment.Header h = parse(header, 0, length);
    requireLength(h, length);
    CRC32C c = new CRC32C();
    for (ByteBuffer part : fragment.nioBuffers(fragment.readerIndex() + HEADER_SIZE, h.payloadLength)) {
      c.update(part);
    }
    int actualCrc = (int) c.getValue();
    requirePayloadCrc(h, actualCrc);
    return h;
  }

  /** {@link Fragment#parseHeader}. */
  static Fragment.Header parse(byte[] bytes, int offset, int length) throws CorruptDataException {
    if (length < HEADER_SIZE) {
      throw new CorruptDataException("fragment truncated: " + length + " bytes, a header alone is " + HEADER_SIZE);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes, offset, HEADER_SIZE);
    int magic = b.getInt();
    if (magic != MAGIC) {
      throw new CorruptDataException(String.format("not a Cairn fragment: magic %08x", magic));
    }
    int version = b.get() & 0xFF;
    if (version != VERSION && version != VERSION_ENCRYPTED) {
      throw new CorruptDataException("unsupported fragment format version " + version + " (this build reads " + VERSION + " and "
          + VERSION_ENCRYPTED + ")");
    }
    int headerCrc = ByteBuffer.wrap(bytes, offset + 60, 4).getInt();
    int actual = crc(bytes, offset, 60);
    if (headerCrc != actual) {
      throw new CorruptDataException(String.format("fragment header is corrupt: CRC32C %08x, stored %08x", actual, headerCrc));
    }
    Codec codec;
    try {
      codec = Codec.fromId(b.get() & 0xFF);
    } catch (IllegalArgumentException e) {
      throw new CorruptDataException("fragment header: " + e.getMessage(), e);
    }
    CompressionType compression = CompressionType.fromId(b.get() & 0xFF);
    int index = b.get() & 0xFF;
    int m = (b.get() & 0xFF) + 1;
    int k = b.get() & 0xFF;
    int encryptionId = b.get() & 0xFF;
    b.get();
    Encryption encryption;
    if (version == VERSION) {
      encryption = Encryption.NONE;
    } else {
      try {
        encryption = Encryption.fromId(encryptionId);
      } catch (IllegalArgumentException e) {
        throw new CorruptDataException("fragment header: " + e.getMessage(), e);
      }
      if (!encryption.encrypted()) {
        throw new CorruptDataException("fragment header: version " + VERSION_ENCRYPTED + " without an encryption");
      }
    }
    int chunkLength = b.getInt();
    int encodedLength = b.getInt();
    int payloadLength = b.getInt();
    int payloadCrc = b.getInt();
    if (m + k > 256 || index >= m + k) {
      throw new CorruptDataException("fragment header: index " + index + " invalid for m=" + m + " k=" + k);
    }
    if (payloadLength < 0 || payloadLength > MAX_PAYLOAD || chunkLength < 0 || chunkLength > MAX_CHUNK
        || encodedLength < 0 || encodedLength > MAX_ENCODED) {
      throw new CorruptDataException("fragment header: lengths out of range (chunk " + chunkLength
          + ", encoded " + encodedLength + ", payload " + payloadLength + ")");
    }
    ChunkId id = ChunkId.fromBytes(bytes, offset + 28);
    return new Fragment.Header(id, codec, compression, encryption, index, m, k, chunkLength, encodedLength, payloadLength, payloadCrc,
        headerCrc);
  }


  private static void requireLength(Fragment.Header h, int length) throws CorruptDataException {
    int expected = HEADER_SIZE + h.payloadLength;
    if (length != expected) {
      throw new CorruptDataException(String.format(
          "fragment %d of chunk %s is %s: header says %d payload bytes, got %d",
          h.index, h.chunkId.shortHex(), length < expected ? "truncated" : "too long", h.payloadLength, length - HEADER_SIZE));
    }
  }

  private static void requirePayloadCrc(Fragment.Header h, int actualCrc) throws CorruptDataException {
    if (actualCrc != h.payloadCrc) {
      throw new CorruptDataException(String.format(
          "fragment %d of chunk %s is corrupt: payload CRC32C %08x, header says %08x",
          h.index, h.chunkId.shortHex(), actualCrc, h.payloadCrc));
    }
  }
}
