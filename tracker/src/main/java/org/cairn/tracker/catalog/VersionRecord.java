package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A committed version: its manifest (JSON, as the client sent it), what storing it cost, and the
 * store session that committed it (null for commits without one), which makes a repeated commit
 * idempotent.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record VersionRecord(JsonNode manifest, long storedBytes, long newChunks, long committedAt, String session) {}
