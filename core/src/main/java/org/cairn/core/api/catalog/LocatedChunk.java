package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import org.cairn.core.availability.HostState;
import org.cairn.core.erasure.Redundancy;
import org.cairn.core.hash.ChunkId;

/**
 * One chunk as the index holds it: its id (hex), its own coding ({@code code:4+2}, null when the index
 * has lost the chunk) and the holder of fragment i at {@code holders.get(i)} (null where nobody holds
 * that piece). {@code base}: the chunk this one is coded against (hex; null for most), located in
 * the same answer.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record LocatedChunk(String id, String redundancy, List<Holder> holders, String base) {

  public LocatedChunk(String id, String redundancy, List<Holder> holders) {
    this(id, redundancy, holders, null);
  }

  /** The base this chunk is coded against, or null. */
  @JsonIgnore
  public ChunkId baseId() {
    return base == null ? null : ChunkId.parse(base);
  }

  @JsonIgnore
  public ChunkId chunkId() {
    return ChunkId.parse(id);
  }

  /** m: pieces needed to rebuild this chunk (from its own coding); 0 when the coding is unknown. */
  @JsonIgnore
  public int needed() {
    return redundancy == null ? 0 : Redundancy.parse(redundancy).dataFragments();
  }

  /** n: the pieces the chunk is coded into. */
  @JsonIgnore
  public int pieces() {
    return holders == null ? 0 : holders.size();
  }

  /** The holder of piece i, or null. */
  public Holder holder(int i) {
    return holders == null || i < 0 || i >= holders.size() ? null : holders.get(i);
  }

  /**
   * A piece's holder: peer id, data address, its state now and the piece's tag (8 hex digits; with the
   * chunk id and index, the piece's key on the peer).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Holder(String id, String address, HostState state, String tag) {
    /** Whether the holder may serve reads now (not DOWN). */
    @JsonIgnore
    public boolean live() {
      return state != null && state.servesReads();
    }
  }
}
