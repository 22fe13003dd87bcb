package org.cairn.core.read;

import java.util.List;
import org.cairn.core.CorruptDataException;
import org.cairn.core.fragment.Fragment;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.pipeline.ChunkCodec;
import org.cairn.core.pipeline.ChunkDecoder;

/**
 * What reading a chunk gave: m ({@code needed}; 0 when the chunk's coding is unknown), the verified
 * pieces by index (null where none), how many, how many holders were asked, and what went wrong.
 */
public record Pieces(ChunkId id, int needed, Fragment[] fragments, int good, int asked, List<String> problems) {
  public boolean enough() {
    return needed > 0 && good >= needed;
  }

  /** The chunk, decoded from the pieces in hand and checked against its id (plaintext chunks). */
  public byte[] decode() throws CorruptDataException {
    return decode(org.cairn.core.crypto.ChunkCrypto.PLAIN);
  }

  /** The chunk, decoded from the pieces in hand, opened with {@code crypto} when sealed, and checked against its id. */
  public byte[] decode(org.cairn.core.crypto.ChunkCrypto crypto) throws CorruptDataException {
    if (!enough()) {
      throw new CorruptDataException(describe());
    }
    return ChunkDecoder.decode(id, fragments, crypto);
  }

  /** One line: why the chunk cannot be read, or what was seen. */
  public String describe() {
    return "chunk " + id.shortHex() + ": " + good + " good pieces of " + (needed == 0 ? "?" : needed) + " needed"
        + (problems.isEmpty() ? "" : " (" + String.join("; ", problems) + ")");
  }
}
