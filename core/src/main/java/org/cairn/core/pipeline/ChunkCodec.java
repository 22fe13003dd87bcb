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
    Compressed c = compressor.compress(data, 0, length);
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
    byte[] encoded = scheme.decode(slots, first.encodedLength());
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

  private static Fragment firstOf(ChunkId expected, Fragment[] fragments) throws CorruptDataException {
    for (Fragment f : fragments) {
      if (f != null) {
        return f;
      }
    }
    throw new CorruptDataException("chunk " + expected.shortHex() + ": no fragments");
  }
}
