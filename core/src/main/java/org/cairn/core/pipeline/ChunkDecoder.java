package org.cairn.core.pipeline;

import java.io.IOException;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.DeltaCodec;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;

/**
 * A chunk's way back from its fragments ({@link ChunkCodec} codes them): fetch decodes → opens (encrypted apps)
 * → decompresses (against a base for a delta-coded chunk) → checks the id; repair re-codes the coded payload
 * as it is, without a key; a catalog record's reader takes the coded payload. Stateless; the fetch pipeline,
 * verify, repair and the catalog records use it.
 */
public final class ChunkDecoder {
  private ChunkDecoder() {}

  /**
   * Rebuilds a plaintext chunk from verified fragments of it, in any order, with gaps or extras; the
   * scheme comes from the fragments' headers, so chunks stored under another scheme decode too.
   *
   * @throws CorruptDataException if fewer than m consistent fragments are given, the decoded bytes do
   *     not hash to {@code expected}, or the chunk is encrypted (that needs {@link #decode(ChunkId, Fragment[], ChunkCrypto)})
   */
  public static byte[] decode(ChunkId expected, Fragment[] fragments) throws CorruptDataException {
    return decode(expected, fragments, ChunkCrypto.PLAIN);
  }

  /** As {@link #decode(ChunkId, Fragment[])}, opening encrypted chunks with {@code crypto}. */
  public static byte[] decode(ChunkId expected, Fragment[] fragments, ChunkCrypto crypto) throws CorruptDataException {
    Fragment first = firstOf(expected, fragments);
    byte[] out = new byte[first.chunkLength()];
    decode(expected, fragments, out, crypto);
    return out;
  }

  /**
   * As {@link #decode(ChunkId, Fragment[])}, into {@code dst}; returns the chunk length. A chunk
   * larger than {@code dst} is refused as corrupt (the caller sized dst from the manifest).
   */
  public static int decode(ChunkId expected, Fragment[] fragments, byte[] dst) throws CorruptDataException {
    return decode(expected, fragments, dst, ChunkCrypto.PLAIN);
  }

  /**
   * As {@link #decode(ChunkId, Fragment[], byte[])}; an encrypted chunk is opened with {@code crypto}
   * and its plaintext checked against the keyed id. A plaintext chunk is checked against its SHA-256.
   */
  public static int decode(ChunkId expected, Fragment[] fragments, byte[] dst, ChunkCrypto crypto) throws CorruptDataException {
    try {
      return decode(expected, fragments, dst, crypto, ChunkCodec.Bases.NONE);
    } catch (CorruptDataException e) {
      throw e;
    } catch (IOException e) {
      throw new CorruptDataException(e.getMessage(), e);
    }
  }

  /** As {@link #decode(ChunkId, Fragment[], byte[], ChunkCrypto)}, finding bases of delta-coded chunks in {@code bases}. */
  public static byte[] decode(ChunkId expected, Fragment[] fragments, ChunkCrypto crypto, ChunkCodec.Bases bases) throws IOException {
    Fragment first = firstOf(expected, fragments);
    byte[] out = new byte[first.chunkLength()];
    decode(expected, fragments, out, crypto, bases);
    return out;
  }

  /**
   * What a fetch decodes with: as {@link #decode(ChunkId, Fragment[], byte[], ChunkCrypto)}; a chunk
   * coded against a base is decoded against the plaintext {@code bases} gives for it. Every chunk,
   * sealed or not, is checked against its (keyed) id before it is handed on: a seal proves only that
   * a holder of the app's key sealed the bytes under that id, not that they are the bytes the id was
   * computed from, and dedup trusts ids.
   *
   * @throws CorruptDataException if the pieces or the chunk are wrong
   * @throws IOException if the base cannot be read
   */
  public static int decode(ChunkId expected, Fragment[] fragments, byte[] dst, ChunkCrypto crypto, ChunkCodec.Bases bases) throws IOException {
    return decode(expected, fragments, dst, crypto, bases, false);
  }

  /**
   * A base for a store to code against ({@link ChunkCodec#encode(ChunkId, byte[], int, ChunkCodec.Base)}): decoded as
   * {@link #decode(ChunkId, Fragment[], byte[], ChunkCrypto)} does, except that a sealed one is not
   * hashed again: its AEAD tag, over the id as associated data, already proves these are the bytes
   * this app sealed under that id (whose id was computed from them at their store), and the chunks
   * coded against it are checked against their own ids whenever they are read.
   */
  public static byte[] decodeBase(ChunkId expected, Fragment[] fragments, ChunkCrypto crypto) throws IOException {
    Fragment first = firstOf(expected, fragments);
    byte[] out = new byte[first.chunkLength()];
    decode(expected, fragments, out, crypto, ChunkCodec.Bases.NONE, true);
    return out;
  }

  private static int decode(ChunkId expected, Fragment[] fragments, byte[] dst, ChunkCrypto crypto, ChunkCodec.Bases bases, boolean trustSeal)
      throws IOException {
    Fragment first = firstOf(expected, fragments);
    byte[] encoded = decodeEncoded(expected, first, fragments);
    if (dst.length < first.chunkLength()) {
      throw new CorruptDataException("chunk " + expected.shortHex() + " claims " + first.chunkLength()
          + " bytes, more than the " + dst.length + " expected");
    }
    ChunkCrypto ids = ChunkCrypto.PLAIN;
    if (first.encryption().encrypted()) {
      if (crypto.encryption() != first.encryption()) {
        throw new CorruptDataException("chunk " + expected.shortHex() + " is sealed with " + first.encryption().spec()
            + (crypto.encryption().encrypted() ? ", not " + crypto.encryption().spec() : "; reading it needs the app's key"));
      }
      encoded = crypto.open(expected, encoded);
      ids = crypto;
    } else if (crypto.encryption().encrypted()) {
      // an encrypted app's chunks are all sealed: unsealed pieces would be checked against a plain
      // SHA-256 id anyone can compute, so a forger who also rewrote the manifest's ids could pass them
      throw new CorruptDataException("chunk " + expected.shortHex() + " is stored unsealed, but its app encrypts with "
          + crypto.encryption().spec() + ": refused as forged");
    }
    if (first.compression().delta()) {
      ChunkId baseId = DeltaCodec.baseOf(encoded, 0, encoded.length);
      if (baseId.equals(expected)) {
        throw new CorruptDataException("chunk " + expected.shortHex() + " names itself as its base");
      }
      DeltaCodec.decode(first.compression(), encoded, 0, encoded.length, bases.plaintext(baseId), dst, first.chunkLength());
    } else {
      first.compression().decompress(encoded, 0, encoded.length, dst, first.chunkLength());
    }
    if (trustSeal && first.encryption().encrypted() && !first.compression().delta()) {
      return first.chunkLength();
    }
    ChunkId actual = ids.id(dst, 0, first.chunkLength());
    if (!actual.equals(expected)) {
      throw new CorruptDataException("chunk " + expected.shortHex() + " decoded to bytes with id " + actual.shortHex());
    }
    return first.chunkLength();
  }

  /**
   * Repair: rebuilds the fragments at {@code indices} from at least m verified fragments of the
   * chunk, without a key. The pieces are re-coded as they are, from the first m given (never recompressed or
   * resealed, so the rebuilt fragments match the lost ones bit for bit, tags included). A plaintext
   * chunk must decompress to bytes with its id. An encrypted one cannot be opened here: every given
   * fragment must instead equal its re-coded self, and the caller compares the rebuilt pieces' tags
   * with those the client recorded at the store (the tracker's index), which cover their CRCs. A
   * chunk coded against a base is checked the same way (its base is not at hand).
   *
   * @throws CorruptDataException if fewer than m consistent fragments are given or the check fails
   */
  public static Fragment[] rebuild(ChunkId expected, Fragment[] fragments, int[] indices) throws CorruptDataException {
    Fragment first = firstOf(expected, fragments);
    Redundancy scheme = Redundancy.of(first.codec(), first.dataFragments(), first.parityFragments());
    // only the pieces not among the first m given are computed (Redundancy.complete), not a decode and an encode
    byte[][] pieces = scheme.complete(slots(expected, first, fragments, scheme), first.encodedLength());
    boolean opaque = first.encryption().encrypted() || first.compression().delta();
    if (!opaque) {
      byte[] encoded = scheme.decode(pieces, first.encodedLength()); // every piece in hand: a copy, no coding
      byte[] chunk = new byte[first.chunkLength()];
      first.compression().decompress(encoded, 0, encoded.length, chunk, first.chunkLength());
      ChunkId actual = ChunkId.of(chunk, 0, chunk.length);
      if (!actual.equals(expected)) {
        throw new CorruptDataException("chunk " + expected.shortHex() + " decoded to bytes with id " + actual.shortHex());
      }
    }
    if (opaque) {
      for (Fragment f : fragments) {
        if (f != null && !java.util.Arrays.equals(f.payload(), pieces[f.index()])) {
          throw new CorruptDataException("encrypted chunk " + expected.shortHex() + ": piece " + f.index()
              + " disagrees with the others (they re-code to other bytes)");
        }
      }
    }
    Fragment[] out = new Fragment[indices.length];
    for (int j = 0; j < indices.length; j++) {
      int i = indices[j];
      if (i < 0 || i >= pieces.length) {
        throw new IllegalArgumentException("chunk " + expected.shortHex() + " has fragments 0.." + (pieces.length - 1) + ", not " + i);
      }
      out[j] = Fragment.create(expected, first.codec(), first.compression(), first.encryption(), i, first.dataFragments(),
          first.parityFragments(), first.chunkLength(), first.encodedLength(), pieces[i]);
    }
    return out;
  }

  /**
   * The coded payload of a chunk as it was given to the redundancy (compressed, maybe sealed), from at
   * least m verified fragments that agree on how it was coded: what a catalog record's reader opens.
   */
  public static byte[] codedPayload(ChunkId expected, Fragment[] fragments) throws CorruptDataException {
    return decodeEncoded(expected, firstOf(expected, fragments), fragments);
  }

  /** Checks the fragments agree with each other and decodes the coded (compressed, maybe sealed) payload. */
  private static byte[] decodeEncoded(ChunkId expected, Fragment first, Fragment[] fragments) throws CorruptDataException {
    Redundancy scheme = Redundancy.of(first.codec(), first.dataFragments(), first.parityFragments());
    return scheme.decode(slots(expected, first, fragments, scheme), first.encodedLength());
  }

  /** The fragments' payloads by index, once they are checked to be pieces of {@code expected} coded alike. */
  private static byte[][] slots(ChunkId expected, Fragment first, Fragment[] fragments, Redundancy scheme) throws CorruptDataException {
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
          || f.encodedLength() != first.encodedLength() || f.compression() != first.compression()
          || f.encryption() != first.encryption()) {
        throw new CorruptDataException("fragments of chunk " + expected.shortHex() + " disagree on how it was coded");
      }
      slots[f.index()] = f.payload();
    }
    return slots;
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
