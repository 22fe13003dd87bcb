package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code GET /api/v1/chunks?app=A[&atLeast=SPEC]}: the chunk ids the app holds (hex), for dedup. With
 * {@code atLeast}, only chunks coded at least as strongly as SPEC (tolerating as many lost pieces),
 * so a store never reuses a chunk with weaker protection than it asks for.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeldChunks(List<String> ids) {}
