package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Map;
import org.cairn.core.api.member.TicketGrant;
import org.cairn.core.hash.ChunkId;
import org.cairn.core.manifest.Manifest;

/**
 * {@code GET /api/v1/manifest?app=A&node=N[&step=T]}: a version's manifest and, per distinct chunk
 * (by hex id), how that chunk is really coded and who holds its pieces now. A chunk's coding is its
 * own (it may have been stored by another version with other redundancy), never the manifest's.
 * {@code tickets}: a READ ticket per holder for its pieces of this version, which a reader presents
 * before asking that holder.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LocatedVersion(Manifest manifest, Map<String, LocatedChunk> chunks, List<TicketGrant> tickets) {
  public LocatedVersion(Manifest manifest, Map<String, LocatedChunk> chunks) {
    this(manifest, chunks, List.of());
  }

  public LocatedVersion {
    tickets = tickets == null ? List.of() : tickets;
  }

  /** The located chunk, or a chunk with no holders when the index has lost it. */
  public LocatedChunk chunk(ChunkId id) {
    LocatedChunk c = chunks == null ? null : chunks.get(id.hex());
    return c == null ? new LocatedChunk(id.hex(), null, List.of()) : c;
  }
}
