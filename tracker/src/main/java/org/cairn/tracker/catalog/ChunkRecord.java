package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.ArrayList;
import java.util.List;
import org.cairn.core.erasure.Redundancy;

/**
 * A chunk held for an app: who holds fragment i ({@code holders.get(i)}, null if none), the bytes
 * of its fragments, how many committed versions reference it, the redundancy it was coded with
 * (e.g. {@code code:4+2}) and the compute host that stored it (placement of repairs ranks against it).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChunkRecord(List<String> holders, long storedBytes, int refs, String redundancy, String client) {

  ChunkRecord withRefs(int n) {
    return new ChunkRecord(holders, storedBytes, n, redundancy, client);
  }

  ChunkRecord withHolder(int index, String peer) {
    List<String> h = new ArrayList<>(holders);
    h.set(index, peer);
    return new ChunkRecord(h, storedBytes, refs, redundancy, client);
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
