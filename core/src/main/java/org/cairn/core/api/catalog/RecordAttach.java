package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * {@code POST /api/v1/records}: the pieces of a version's catalog record are stored ({@code chunk}:
 * its id, holders, tags and coding, as a commit names a chunk); the index keeps them while the version
 * lives. Answer: {@link Answer}.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RecordAttach(String app, String node, long step, CommitRequest.NewChunk chunk) {

  /** Whether the record was attached (false: the version already had one, or is gone). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(boolean attached) {}
}
