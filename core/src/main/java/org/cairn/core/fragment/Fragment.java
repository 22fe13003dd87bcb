package org.cairn.core.fragment;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Codec;
import org.cairn.core.hash.ChunkId;

/**
 * One stored piece of one chunk. The 64-byte header lets a peer verify a fragment without the
 * manifest, and lets a reader reject a truncated or altered fragment before decoding anything.
 *
 * <pre>
 * offset size field
 *  0     4    magic "CRNF"
 *  4     1    format version (1: plaintext; 2: encrypted)
 *  5     1    codec id (0 replicate, 1 Reed-Solomon, 2 Cauchy)
 *  6     1    compression id (0 none, 1 zstd, 2 gzip, 3 delta against a base as dictionary, 4 page delta)
 *  7     1    fragment index, 0..n-1
 *  8     1    m - 1 (data fragments; stored minus one so 256 fits)
 *  9     1    k (parity fragments)
 * 10     1    v1: reserved, 0; v2: encryption id (1 aes-gcm, 2 aes-siv)
 * 11     1    reserved, 0
 * 12     4    chunk length (plaintext bytes)
 * 16     4    encoded length (compressed payload before coding; v2: its sealed form)
 * 20     4    payload length (bytes of this fragment after the header)
 * 24     4    CRC32C of the payload
 * 28    32    chunk id (v1: SHA-256 of the plaintext; v2: the app key's HMAC-SHA256 of it)
 * 60     4    CRC32C of bytes 0..59
 * 64    ...   payload
 * </pre>
 * All integers big-endian. Plaintext chunks are written as version 1, so their pieces (and tags)
 * are what they were before encryption existed; version 2 marks a sealed payload, which a peer can
 * store, scrub and re-code (repair) without the key, but only the app's key opens.
 *
 * <p>The header's CRC (bytes 60..63) is also the fragment's <em>tag</em>: it covers the scheme
 * (codec, compression, m, k), the lengths and the payload's CRC, so two pieces with the same chunk
 * id and index but made differently (another app's redundancy or compression) have different tags.
 * Peers key fragments by chunk id, index and tag ({@code FragmentKey}), so such pieces never replace
 * each other.
 */
public final class Fragment {
  public static final int MAGIC = 0x43524E46; // "CRNF"
  /** Format version of plaintext fragments. */
  public static final int VERSION = 1;
  /** Format version of encrypted fragments (byte 10 names the encryption). */
  public static final int VERSION_ENCRYPTED = 2;
  public static final int HEADER_SIZE = 64;
  /** Largest payload a fragment may claim: a 16 MiB chunk stored raw and replicated, plus slack. */
  public static final int MAX_PAYLOAD = 16 * 1024 * 1024 + 4096;
  /** Largest chunk: {@code ChunkSize.MAX}. */
  public static final int MAX_CHUNK = 16 * 1024 * 1024;
  /** Largest compressed payload of a chunk: zstd's bound on 16 MiB is 16 MiB + 64 KiB. */
  public static final int MAX_ENCODED = MAX_CHUNK + 1024 * 1024;

  private final ChunkId chunkId;
  private final Codec codec;
  private final CompressionType compression;
  private final Encryption encryption;
  private final int index;
  private final int dataFragments;
  private final int parityFragments;
  private final int chunkLength;
  private final int encodedLength;
  private final byte[] payload;
  private final int payloadCrc;

  private Fragment(ChunkId chunkId, Codec codec, CompressionType compression, Encryption encryption, int index, int m, int k,
      int chunkLength, int encodedLength, byte[] payload, int payloadCrc) {
    this.chunkId = chunkId;
    this.codec = codec;
    this.compression = compression;
    this.encryption = encryption;
    this.index = index;
    this.dataFragments = m;
    this.parityFragments = k;
    this.chunkLength = chunkLength;
    this.encodedLength = encodedLength;
    this.payload = payload;
    this.payloadCrc = payloadCrc;
  }

  /** A new plaintext fragment over {@code payload} (not copied; must not change afterwards). */
  public static Fragment create(ChunkId chunkId, Codec codec, CompressionType compression, int index, int m, int k,
      int chunkLength, int encodedLength, byte[] payload) {
    return create(chunkId, codec, compression, Encryption.NONE, index, m, k, chunkLength, encodedLength, payload);
  }

  /** A new fragment over {@code payload} (not copied; must not change afterwards), sealed under {@code encryption}. */
  public static Fragment create(ChunkId chunkId, Codec codec, CompressionType compression, Encryption encryption, int index,
      int m, int k, int chunkLength, int encodedLength, byte[] payload) {
    Objects.requireNonNull(chunkId, "chunkId");
    Objects.requireNonNull(encryption, "encryption");
    if (m < 1 || k < 0 || m + k > 256) {
      throw new IllegalArgumentException("need 1 <= m and m + k <= 256, was m=" + m + " k=" + k);
    }
    if (index < 0 || index >= m + k) {
      throw new IllegalArgumentException("fragment index must be in [0, " + (m + k) + "), was " + index);
    }
    if (payload.length > MAX_PAYLOAD || chunkLength > MAX_CHUNK || encodedLength > MAX_ENCODED) {
      throw new IllegalArgumentException("fragment of " + payload.length + " bytes for a chunk of " + chunkLength
          + " (" + encodedLength + " encoded) exceeds the format's limits");
    }
    return new Fragment(chunkId, codec, compression, encryption, index, m, k, chunkLength, encodedLength, payload,
        crc(payload, 0, payload.length));
  }

  /** The header's CRC32C: identifies this exact piece among pieces of the same chunk and index. */
  public int tag() {
    byte[] h = new byte[HEADER_SIZE];
    writeHeader(h);
    return ByteBuffer.wrap(h, 60, 4).getInt();
  }

  /** The tag of a serialised fragment whose header has been verified ({@link #parseHeader}). */
  public static int tagOf(byte[] bytes, int offset) {
    return ByteBuffer.wrap(bytes, offset + 60, 4).getInt();
  }

  /** Serialises header and payload into one new array. */
  public byte[] toBytes() {
    byte[] out = new byte[HEADER_SIZE + payload.length];
    writeHeader(out);
    System.arraycopy(payload, 0, out, HEADER_SIZE, payload.length);
    return out;
  }

  /** Writes the 64-byte header into {@code out[0..63]}. */
  public void writeHeader(byte[] out) {
    ByteBuffer b = ByteBuffer.wrap(out, 0, HEADER_SIZE);
    b.putInt(MAGIC);
    b.put((byte) (encryption.encrypted() ? VERSION_ENCRYPTED : VERSION));
    b.put((byte) codec.id());
    b.put((byte) compression.id());
    b.put((byte) index);
    b.put((byte) (dataFragments - 1));
    b.put((byte) parityFragments);
    b.put((byte) encryption.id());
    b.put((byte) 0);
    b.putInt(chunkLength);
    b.putInt(encodedLength);
    b.putInt(payload.length);
    b.putInt(payloadCrc);
    chunkId.copyTo(out, 28);
    b.position(60);
    b.putInt(crc(out, 0, 60));
  }

  /** Parses and verifies a whole serialised fragment; the payload is copied out. */
  public static Fragment parse(byte[] bytes) throws CorruptDataException {
    return parse(bytes, 0, bytes.length);
  }

  /**
   * Parses and verifies {@code bytes[offset, offset+length)}: magic, version, header CRC, field
   * ranges, exact length and payload CRC.
   *
   * @throws CorruptDataException saying what is wrong
   */
  public static Fragment parse(byte[] bytes, int offset, int length) throws CorruptDataException {
    Header h = verify(bytes, offset, length);
    byte[] payload = Arrays.copyOfRange(bytes, offset + HEADER_SIZE, offset + HEADER_SIZE + h.payloadLength);
    return new Fragment(h.chunkId, h.codec, h.compression, h.encryption, h.index, h.m, h.k, h.chunkLength, h.encodedLength,
        payload, h.payloadCrc);
  }

  /**
   * Checks {@code bytes[offset, offset+length)} as {@link #parse} does (magic, version, header CRC,
   * field ranges, exact length, payload CRC) without copying the payload out: for a peer, which
   * stores the bytes as they came.
   *
   * @return the verified header
   * @throws CorruptDataException saying what is wrong
   */
  public static Header verify(byte[] bytes, int offset, int length) throws CorruptDataException {
    return FragmentHeaders.verify(bytes, offset, length);
  }

  /**
   * As {@link #verify(byte[], int, int)} for the readable bytes of a buffer, without copying the
   * payload: the header (64 bytes) is copied out, the payload's CRC32C runs over the buffer's own
   * memory (direct or composite). The buffer's indices are not changed.
   */
  public static Header verify(io.netty.buffer.ByteBuf fragment) throws CorruptDataException {
    return FragmentHeaders.verify(fragment);
  }

  /** The tag (header CRC, bytes 60..64) of a fragment in a buffer whose header has been verified. */
  public static int tagOf(io.netty.buffer.ByteBuf fragment) {
    return fragment.getInt(fragment.readerIndex() + 60);
  }

  /** The verified header fields of a serialised fragment (the payload is not checked). */
  public static Header parseHeader(byte[] bytes, int offset, int length) throws CorruptDataException {
    return FragmentHeaders.parse(bytes, offset, length);
  }

  static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  public ChunkId chunkId() {
    return chunkId;
  }

  public Codec codec() {
    return codec;
  }

  public CompressionType compression() {
    return compression;
  }

  /** How the payload is sealed; {@link Encryption#NONE} for a version-1 (plaintext) fragment. */
  public Encryption encryption() {
    return encryption;
  }

  public int index() {
    return index;
  }

  public int dataFragments() {
    return dataFragments;
  }

  public int parityFragments() {
    return parityFragments;
  }

  public int chunkLength() {
    return chunkLength;
  }

  public int encodedLength() {
    return encodedLength;
  }

  /** The payload array itself (not copied; do not modify). */
  public byte[] payload() {
    return payload;
  }

  public int payloadCrc() {
    return payloadCrc;
  }

  /** Header plus payload. */
  public int serializedSize() {
    return HEADER_SIZE + payload.length;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Fragment)) {
      return false;
    }
    Fragment f = (Fragment) o;
    return index == f.index && dataFragments == f.dataFragments && parityFragments == f.parityFragments
        && chunkLength == f.chunkLength && encodedLength == f.encodedLength && codec == f.codec
        && compression == f.compression && encryption == f.encryption && chunkId.equals(f.chunkId) && Arrays.equals(payload, f.payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(chunkId, index, payloadCrc);
  }

  @Override
  public String toString() {
    return "Fragment{" + chunkId.shortHex() + " #" + index + " " + codec.specName() + ":" + dataFragments + "+"
        + parityFragments + " " + compression + (encryption.encrypted() ? " " + encryption.spec() : "") + " " + payload.length + "B}";
  }

  /** The fields of a verified header. */
  public static final class Header {
    public final ChunkId chunkId;
    public final Codec codec;
    public final CompressionType compression;
    public final Encryption encryption;
    public final int index;
    public final int m;
    public final int k;
    public final int chunkLength;
    public final int encodedLength;
    public final int payloadLength;
    public final int payloadCrc;
    /** The header's CRC, the fragment's tag. */
    public final int tag;

    Header(ChunkId chunkId, Codec codec, CompressionType compression, Encryption encryption, int index, int m, int k,
        int chunkLength, int encodedLength, int payloadLength, int payloadCrc, int tag) {
      this.chunkId = chunkId;
      this.codec = codec;
      this.compression = compression;
      this.encryption = encryption;
      this.index = index;
      this.m = m;
      this.k = k;
      this.chunkLength = chunkLength;
      this.encodedLength = encodedLength;
      this.payloadLength = payloadLength;
      this.payloadCrc = payloadCrc;
      this.tag = tag;
    }
  }
}
