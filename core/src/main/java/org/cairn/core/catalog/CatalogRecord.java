package org.cairn.core.catalog;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import org.cairn.core.CorruptDataException;
import org.cairn.core.compress.CompressionType;
import org.cairn.core.crypto.Encryption;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkDecoder;

/**
 * A version's catalog record on the grid: what the tracker knows of one committed version
 * (its manifest and the index entries of its chunks), compressed, sealed under the grid's catalog key
 * ({@link org.cairn.core.crypto.CatalogKey}) and stored on the donors as one more chunk of the version,
 * coded like its data. If every tracker disk is lost, {@code cairn-tracker recover --from-peers} finds
 * the records among the peers' holdings and rebuilds the catalog from them.
 *
 * <p>A record's chunk id is {@code "CAIRNCAT"} followed by the first 24 bytes of the SHA-256 of the
 * sealed bytes, so a listing of a peer's keys tells records from data (a data chunk's id is an HMAC or
 * SHA-256 output: 2^-64 odds of that prefix) and a reader checks the bytes it decoded. Its fragments
 * are format 2 (sealed: repair re-codes them without opening them, as it does encrypted data), encryption
 * id aes-gcm (HPKE seals with AES-256-GCM), compression none (the plaintext is zstd-compressed inside
 * the seal).
 */
public final class CatalogRecord {
  private static final byte[] MAGIC = "CAIRNCAT".getBytes(StandardCharsets.US_ASCII);
  /** Largest record plaintext accepted (a manifest of ~40,000 chunks and their index entries). */
  public static final int MAX_PLAINTEXT = 64 << 20;

  private CatalogRecord() {}

  /** The chunk id of a sealed record. */
  public static ChunkId idOf(byte[] sealed) {
    byte[] raw = new byte[ChunkId.LENGTH];
    System.arraycopy(MAGIC, 0, raw, 0, MAGIC.length);
    System.arraycopy(sha256(sealed), 0, raw, MAGIC.length, ChunkId.LENGTH - MAGIC.length);
    return ChunkId.fromBytes(raw);
  }

  /** Whether {@code id} names a catalog record rather than data. */
  public static boolean isRecord(ChunkId id) {
    byte[] raw = id.toBytes();
    return Arrays.equals(raw, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  /** The fragments of a sealed record under {@code r}. */
  public static Fragment[] code(byte[] sealed, Redundancy r) {
    if (sealed.length > Fragment.MAX_CHUNK) {
      throw new IllegalArgumentException("a catalog record of " + sealed.length + " bytes is larger than a chunk may be ("
          + Fragment.MAX_CHUNK + ")");
    }
    ChunkId id = idOf(sealed);
    byte[][] pieces = r.encode(sealed, 0, sealed.length);
    Fragment[] out = new Fragment[pieces.length];
    for (int i = 0; i < pieces.length; i++) {
      out[i] = Fragment.create(id, r.codec(), CompressionType.NONE, Encryption.AES_GCM, i, r.dataFragments(), r.parityFragments(),
          sealed.length, sealed.length, pieces[i]);
    }
    return out;
  }

  /** The sealed record from at least m of its fragments, checked against its id. */
  public static byte[] decode(ChunkId id, Fragment[] fragments) throws CorruptDataException {
    if (!isRecord(id)) {
      throw new CorruptDataException("chunk " + id.shortHex() + " is not a catalog record");
    }
    byte[] sealed = ChunkDecoder.codedPayload(id, fragments);
    if (!idOf(sealed).equals(id)) {
      throw new CorruptDataException("catalog record " + id.shortHex() + " decoded to other bytes");
    }
    return sealed;
  }

  /** The plaintext as sealed: u32 length, then zstd. */
  public static byte[] pack(byte[] plaintext) {
    byte[] z = Zstd.compress(plaintext, 3);
    return ByteBuffer.allocate(4 + z.length).putInt(plaintext.length).put(z).array();
  }

  /** The plaintext of {@link #pack}. */
  public static byte[] unpack(byte[] packed) throws CorruptDataException {
    if (packed.length < 4) {
      throw new CorruptDataException("catalog record of " + packed.length + " bytes");
    }
    int n = ByteBuffer.wrap(packed).getInt();
    if (n < 0 || n > MAX_PLAINTEXT) {
      throw new CorruptDataException("catalog record claims " + n + " bytes");
    }
    try {
      byte[] out = Zstd.decompress(Arrays.copyOfRange(packed, 4, packed.length), n);
      if (out.length != n) {
        throw new CorruptDataException("catalog record decompressed to " + out.length + " bytes, not " + n);
      }
      return out;
    } catch (RuntimeException e) {
      throw new CorruptDataException("catalog record does not decompress: " + e.getMessage(), e);
    }
  }

  private static byte[] sha256(byte[] b) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(b);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
