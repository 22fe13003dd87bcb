package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * {@code GET /api/v1/sets?app=A&node=N}: a checkpoint set of app/node whose parts are not all
 * committed yet (it is no version until they are): parts committed of parts declared, and when its
 * first part committed (ms since the epoch; the tracker drops it --set-timeout after that).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SetProgress(String set, int partsCommitted, int parts, long firstCommittedAt) {}
