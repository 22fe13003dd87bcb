package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.erasure.Redundancy;

/**
 * A chunk held for an app: who holds fragment i ({@code holders.get(i)}, null if none), the bytes
 * of its fragments, how many committed versions reference it, the redundancy it was coded with
 * (e.g. {@code code:4+2}), the compute host that stored it (placement of repairs ranks against it)
 * and each fragment's tag (8 hex digits, {@code Fragment.tag()}): with the chunk id and index it is
 * the fragment's key on its peer. {@code base} (hex, null for most): the chunk this one is coded
 * against ({@code DeltaCodec}); the base holds one reference per chunk coded against it, so it stays
 * while they do.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChunkRecord(List<String> holders, long storedBytes, int refs, String redundancy, String client, List<String> tags,
    String base) {

  ChunkRecord withRefs(int n) {
    return new ChunkRecord(holders, storedBytes, n, redundancy, client, tags, base);
  }

  ChunkRecord withHolder(int index, String peer) {
    List<String> h = new ArrayList<>(holders);
    h.set(index, peer);
    return new ChunkRecord(h, storedBytes, refs, redundancy, client, tags, base);
  }

  /** The base this chunk is coded against, or null. */
  public ChunkId baseId() {
    return base == null ? null : ChunkId.parse(base);
  }

  /** Fragment {@code index}'s tag, or null if the record has none (written before tags existed). */
  public String tag(int index) {
    return tags == null || index >= tags.size() ? null : tags.get(index);
  }

  /** Whether this record says {@code peer} holds the fragment with this index and tag. */
  public boolean assigns(String peer, int index, int tag) {
    String t = tag(index);
    return index < holders.size() && peer.equals(holders.get(index)) && t != null
        && t.equals(org.cairn.core.protocol.FragmentKey.tagHex(tag));
  }

  /** m: pieces needed to rebuild the chunk (all of them if the record predates the redundancy field). */
  public int needed() {
    if (redundancy == null) {
      return holders.size();
    }
    return Redundancy.parse(redundancy).dataFragments();
  }

  /** Bytes of one fragment (all fragments of a chunk are the same size). */
  public long fragmentBytes() {
    return holders.isEmpty() ? 0 : storedBytes / holders.size();
  }
}
