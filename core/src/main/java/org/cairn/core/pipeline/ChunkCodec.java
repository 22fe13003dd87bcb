package org.cairn.core.pipeline;

import java.io.IOException;
import java.util.Objects;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.Compressed;
import org.cairn.core.compress.Compressor;
import org.cairn.core.compress.DeltaCodec;
import org.cairn.core.crypto.ChunkCrypto;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;

/**
 * One chunk to its n fragments; the one place chunks are coded. Store: id (keyed for an encrypted
 * app) → compress → seal (encrypted apps; the id is the associated data) → code. The way back (fetch:
 * decode → open → decompress → check the id; repair's re-coding without a key) is {@link ChunkDecoder}.
 * Thread-safe (its only state is a cache of zero chunks' ids).
 */
public final class ChunkCodec {
  private final Compressor compressor;
  private final Redundancy redundancy;
  private final ChunkCrypto crypto;
  /** The id of the all-zero chunk of each length met (untouched pages fill much of a memory image). */
  private final java.util.Map<Integer, ChunkId> zeroIds = new java.util.concurrent.ConcurrentHashMap<>();

  /** Plaintext chunks (SHA-256 ids, nothing sealed). */
  public ChunkCodec(Compressor compressor, Redundancy redundancy) {
    this(compressor, redundancy, ChunkCrypto.PLAIN);
  }

  public ChunkCodec(Compressor compressor, Redundancy redundancy, ChunkCrypto crypto) {
    this.compressor = Objects.requireNonNull(compressor, "compressor");
    this.redundancy = Objects.requireNonNull(redundancy, "redundancy");
    this.crypto = Objects.requireNonNull(crypto, "crypto");
  }

  public Redundancy redundancy() {
    return redundancy;
  }

  public Compressor compressor() {
    return compressor;
  }

  public ChunkCrypto crypto() {
    return crypto;
  }

  /**
   * The id of {@code data[0, length)}: what dedup compares, computed before anything else. An
   * all-zero chunk (found by a vectorised compare, tens of GB/s) is hashed once per length.
   */
  public ChunkId id(byte[] data, int length) {
    if (Zeros.all(data, 0, length)) {
      return zeroIds.computeIfAbsent(length, n -> crypto.id(new byte[n], 0, n));
    }
    return crypto.id(data, 0, length);
  }

  /**
   * A chunk another may be coded against: its id and plaintext (the chunk at the same memory address
   * in the previous version, never itself coded against a base).
   */
  public record Base(ChunkId id, byte[] data) {}

  /** Where decoding finds the plaintext of a base a chunk was coded against ({@link DeltaCodec}). */
  @FunctionalInterface
  public interface Bases {
    /** No bases at hand: a chunk coded against one is refused. */
    Bases NONE = id -> {
      throw new CorruptDataException("chunk is coded against base " + id.shortHex() + ", which this reader was not given");
    };

    /** The base's plaintext, checked against its id. */
    byte[] plaintext(ChunkId id) throws IOException;
  }

  /** A delta is kept when it is at most this share of the chunk's plain compressed size. */
  static final double DELTA_KEEP = 0.9;
  /** A delta this small against the raw chunk is kept without compressing the chunk plainly to compare. */
  static final int DELTA_CLEAR_WIN = 8;

  /** Compresses, seals (when encrypted) and codes {@code data[0, length)}, whose id is {@code id}. */
  public Fragment[] encode(ChunkId id, byte[] data, int length) {
    return encode(id, data, length, null);
  }

  /**
   * As {@link #encode(ChunkId, byte[], int)}; with a {@code base}, the chunk is compressed against it
   * when that is smaller ({@code CompressionType.PAGE_DELTA}, the base named inside the payload) and
   * plainly otherwise. The fragments' compression says which.
   */
  public Fragment[] encode(ChunkId id, byte[] data, int length, Base base) {
    // the redundancy copies the payload into the fragments, so the compressor's scratch buffer is enough
    Compressed c = compressed(data, length, base);
    byte[] payload = c.data();
    int payloadLength = c.length();
    if (crypto.encryption().encrypted()) {
      payload = crypto.seal(id, c.data(), 0, c.length());
      payloadLength = payload.length;
    }
    byte[][] pieces = redundancy.encode(payload, 0, payloadLength);
    Fragment[] out = new Fragment[pieces.length];
    for (int i = 0; i < pieces.length; i++) {
      out[i] = Fragment.create(id, redundancy.codec(), c.type(), crypto.encryption(), i, redundancy.dataFragments(),
          redundancy.parityFragments(), length, payloadLength, pieces[i]);
    }
    return out;
  }

  private Compressed compressed(byte[] data, int length, Base base) {
    int level = compressor.deltaLevel();
    Compressed delta = base == null || level <= 0 || base.id() == null ? null
        : DeltaCodec.encodePagesTransient(base.id(), base.data(), data, length, level);
    if (delta == null) {
      return compressor.compressTransient(data, 0, length);
    }
    if ((long) delta.length() * DELTA_CLEAR_WIN <= length) {
      return delta;
    }
    Compressed plain = compressor.compressTransient(data, 0, length);
    return delta.length() <= plain.length() * DELTA_KEEP ? delta : plain;
  }
}
