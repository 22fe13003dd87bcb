package org.cairn.core.api.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code GET /api/v1/peers/{id}/assigned?after=CURSOR&limit=N}: a page of the fragment keys (hex) the
 * index assigns to the peer, and the cursor to continue after (null at the end).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AssignedPage(List<String> keys, String next) {}
