package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A committed version: its manifest (JSON, as the client sent it), what storing it cost, and the
 * store session that committed it (null for commits without one), which makes a repeated commit
 * idempotent. A checkpoint set's version also has {@code parts}, one per part in part order, each
 * with its own manifest and session; {@code manifest} is then part 0's. {@code record}: the chunk id
 * (hex) of the version's catalog record on the grid, once its store put it there (null before, and for
 * versions committed before records existed); the record holds one reference to it.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VersionRecord(JsonNode manifest, long storedBytes, long newChunks, long committedAt, String session, List<PartRecord> parts,
    String record) {

  public VersionRecord(JsonNode manifest, long storedBytes, long newChunks, long committedAt, String session) {
    this(manifest, storedBytes, newChunks, committedAt, session, null, null);
  }

  public VersionRecord(JsonNode manifest, long storedBytes, long newChunks, long committedAt, String session, List<PartRecord> parts) {
    this(manifest, storedBytes, newChunks, committedAt, session, parts, null);
  }

  /** This version with its catalog record's chunk id (hex; {@code org.cairn.core.catalog.CatalogRecord}). */
  public VersionRecord withRecord(String id) {
    return new VersionRecord(manifest, storedBytes, newChunks, committedAt, session, parts, id);
  }

  /** One committed part of a checkpoint set: as a pending part, and inside its set's version. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PartRecord(JsonNode manifest, long storedBytes, long newChunks, long committedAt, String session,
      List<org.cairn.core.api.catalog.CommitRequest.SoftHold> soft, List<String> sent) {
    public PartRecord(JsonNode manifest, long storedBytes, long newChunks, long committedAt, String session) {
      this(manifest, storedBytes, newChunks, committedAt, session, null, null);
    }
  }

  /** The manifests of this version: its parts' for a set, else the one. */
  public List<JsonNode> manifests() {
    if (parts == null) {
      return List.of(manifest);
    }
    List<JsonNode> out = new ArrayList<>(parts.size());
    for (PartRecord p : parts) {
      out.add(p.manifest());
    }
    return out;
  }

  /** The store sessions that committed this version (each part's, for a set). */
  public List<String> sessions() {
    List<String> out = new ArrayList<>();
    if (session != null) {
      out.add(session);
    }
    if (parts != null) {
      for (PartRecord p : parts) {
        if (p.session() != null) {
          out.add(p.session());
        }
      }
    }
    return out;
  }

  /** Whether {@code s} committed this version or one of its parts. */
  public boolean committedBy(String s) {
    if (s.equals(session)) {
      return true;
    }
    return parts != null && parts.stream().anyMatch(p -> s.equals(p.session()));
  }
}
