package org.cairn.core.pipeline;

import java.util.Objects;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.Compressed;
import org.cairn.core.compress.Compressor;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;

/**
 * One chunk to its n fragments (compress, then code) and back (decode, decompress, verify the
 * content id). Stateless and thread-safe; the store and fetch pipelines and repair all use it.
 */
public final class ChunkCodec {
  private final Compressor compressor;
  private final Redundancy redundancy;

  public ChunkCodec(Compressor compressor, Redundancy redundancy) {
    this.compressor = Objects.requireNonNull(compressor, "compressor");
    this.redundancy = Objects.requireNonNull(redundancy, "redundancy");
  }

  public Redundancy redundancy() {
    return redundancy;
  }

  public Compressor compressor() {
    return compressor;
  }

  /** Compresses and codes {@code data[0, length)}, whose content id is {@code id}. */
  public Fragment[] encode(ChunkId id, byte[] data, int length) {
    // the redundancy copies the payload into the fragments, so the compressor's scratch buffer is enough
    Compressed c = compressor.compressTransient(data, 0, length);
    byte[][] pieces = redundancy.encode(c.data(), 0, c.length());
    Fragment[] out = new Fragment[pieces.length];
    for (int i = 0; i < pieces.length; i++) {
      out[i] = Fragment.create(id, redundancy.codec(), c.type(), i, redundancy.dataFragments(),
          redundancy.parityFragments(), length, c.length(), pieces[i]);
    }
    return out;
  }

  /**
   * Rebuilds a chunk from verified fragments of it, in any order, with gaps or extras; the scheme
   * comes from the fragments' headers, so chunks stored under another scheme decode too.
   *
   * @throws CorruptDataException if fewer than m consistent fragments are given, or the decoded
   *     bytes do not hash to {@code expected}
   */
  public static byte[] decode(ChunkId expected, Fragment[] fragments) throws CorruptDataException {
    Fragment first = firstOf(expected, fragments);
    byte[] out = new byte[first.chunkLength()];
    decode(expected, fragments, out);
    return out;
  }

  /**
   * As {@link #decode(ChunkId, Fragment[])}, into {@code dst}; returns the chunk length. A chunk
   * larger than {@code dst} is refused as corrupt (the caller sized dst from the manifest).
   */
  public static int decode(ChunkId expected, Fragment[] fragments, byte[] dst) throws CorruptDataException {
    Fragment first = firstOf(expected, fragments);
    byte[] encoded = decodeEncoded(expected, first, fragments);
    if (dst.length < first.chunkLength()) {
      throw new CorruptDataException("chunk " + expected.shortHex() + " claims " + first.chunkLength()
          + " bytes, more than the " + dst.length + " expected");
    }
    first.compression().decompress(encoded, 0, encoded.length, dst, first.chunkLength());
    ChunkId actual = ChunkId.of(dst, 0, first.chunkLength());
    if (!actual.equals(expected)) {
      throw new CorruptDataException("chunk " + expected.shortHex() + " decoded to bytes with id " + actual.shortHex());
    }
    return first.chunkLength();
  }

  /**
   * Repair: rebuilds the fragments at {@code indices} from at least m verified fragments of the
   * chunk. The coded payload is decoded and re-coded as it is (never recompressed, so the rebuilt
   * fragments match the surviving ones bit for bit); it must decompress to bytes with the chunk's id.
   *
   * @throws CorruptDataException if fewer than m consistent fragments are given or the id does not match
   */
  public static Fragment[] rebuild(ChunkId expected, Fragment[] fragments, int[] indices) throws CorruptDataException {
    Fragment first = firstOf(expected, fragments);
    byte[] encoded = decodeEncoded(expected, first, fragments);
    byte[] chunk = new byte[first.chunkLength()];
    first.compression().decompress(encoded, 0, encoded.length, chunk, first.chunkLength());
    ChunkId actual = ChunkId.of(chunk, 0, chunk.length);
    if (!actual.equals(expected)) {
      throw new CorruptDataException("chunk " + expected.shortHex() + " decoded to bytes with id " + actual.shortHex());
    }
    Redundancy scheme = Redundancy.of(first.codec(), first.dataFragments(), first.parityFragments());
    byte[][] pieces = scheme.encode(encoded, 0, encoded.length);
    Fragment[] out = new Fragment[indices.length];
    for (int j = 0; j < indices.length; j++) {
      int i = indices[j];
      if (i < 0 || i >= pieces.length) {
        throw new IllegalArgumentException("chunk " + expected.shortHex() + " has fragments 0.." + (pieces.length - 1) + ", not " + i);
      }
      out[j] = Fragment.create(expected, first.codec(), first.compression(), i, first.dataFragments(), first.parityFragments(),
          first.chunkLength(), first.encodedLength(), pieces[i]);
    }
    return out;
  }

  /** Checks the fragments agree with each other and decodes the coded (compressed) payload. */
  private static byte[] decodeEncoded(ChunkId expected, Fragment first, Fragment[] fragments) throws CorruptDataException {
    Redundancy scheme = Redundancy.of(first.codec(), first.dataFragments(), first.parityFragments());
    byte[][] slots = new byte[scheme.totalFragments()][];
    for (Fragment f : fragments) {
      if (f == null) {
        continue;
      }
      if (!f.chunkId().equals(expected)) {
        throw new CorruptDataException("fragment of chunk " + f.chunkId().shortHex() + " given for chunk " + expected.shortHex());
      }
      if (f.codec() != first.codec() || f.dataFragments() != first.dataFragments()
          || f.parityFragments() != first.parityFragments() || f.chunkLength() != first.chunkLength()
          || f.encodedLength() != first.encodedLength() || f.compression() != first.compression()) {
        throw new CorruptDataException("fragments of chunk " + expected.shortHex() + " disagree on how it was coded");
      }
      slots[f.index()] = f.payload();
    }
    return scheme.decode(slots, first.encodedLength());
  }

  private static Fragment firstOf(ChunkId expected, Fragment[] fragments) throws CorruptDataException {
    for (Fragment f : fragments) {
      if (f != null) {
        return f;
      }
    }
    throw new CorruptDataException("chunk " + expected.shortHex() + ": no fragments");
  }
}
