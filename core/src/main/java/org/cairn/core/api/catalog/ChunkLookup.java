package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code POST /api/v1/chunks/lookup}: whether the app holds each chunk (hex ids, at most 100,000 per
 * call); {@link Answer#held} is in the same order. Stores use {@link HeldChunks} instead; this is for
 * tools asking about a few chunks.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChunkLookup(String app, List<String> ids) {
  /** One flag per id asked about. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Answer(boolean[] held) {}
}
