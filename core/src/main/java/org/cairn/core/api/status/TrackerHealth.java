package org.cairn.core.api.status;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** {@code GET /api/v1/health}: "ok", the peers the tracker knows and how long it has served. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TrackerHealth(String status, int peers, long uptimeMillis) {}
