package org.cairn.tracker.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;

/** A committed version: its manifest (JSON, as the client sent it) and what storing it cost. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record VersionRecord(JsonNode manifest, long storedBytes, long newChunks, long committedAt) {}
